package template_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/functions"
	"github.com/multisell/multisell/pkg/local/template"
)

// root is the repository root, relative to this package.
const root = "../../.."

// localOnlyEnv are variables app reads that the template must not set: the emulator
// endpoints (local stack only), and AWS_REGION and the execution role's credentials (set
// by the Lambda runtime).
var localOnlyEnv = map[string]bool{"DYNAMODB_ENDPOINT": true, "SQS_ENDPOINT": true, "KMS_ENDPOINT": true, "AWS_REGION": true, "WEBHOOK_LOOPBACK": true,
	"AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true}

func loadTemplate(t *testing.T) *template.Template {
	t.Helper()
	tpl, err := template.ParseFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

// The Test* functions below check template.yaml against the code and the
// conventions the Makefile and the local stack rely on.

// TestTemplateReferences: every Ref, GetAtt and Sub names a resource, a
// parameter or a pseudo parameter.
func TestTemplateReferences(t *testing.T) {
	tpl := loadTemplate(t)
	for _, err := range tpl.CheckReferences() {
		t.Error(err)
	}
}

// TestTemplateFunctions: each function is built by the Makefile from its
// folder under functions/, for provided.al2023 on arm64.
func TestTemplateFunctions(t *testing.T) {
	tpl := loadTemplate(t)
	for _, f := range tpl.Functions {
		t.Run(f.LogicalID, func(t *testing.T) {
			if got, want := f.CodeURI, "functions/"+f.Folder+"/"; got != want {
				t.Errorf("CodeUri %q, want %q", got, want)
			}
			if _, err := os.Stat(filepath.Join(root, "functions", f.Folder, "main.go")); err != nil {
				t.Error(err)
			}
			if want := pascal(f.Folder) + "Function"; f.LogicalID != want {
				t.Errorf("logical id must be %s (make build-<LogicalId> derives the folder from it)", want)
			}
			if f.BuildMethod != "makefile" || f.Runtime != "provided.al2023" || f.Handler != "bootstrap" || !slices.Equal(f.Architectures, []string{"arm64"}) {
				t.Errorf("want makefile build, provided.al2023, bootstrap, arm64; got %+v", f)
			}
			meta := tpl.Resources[f.LogicalID].Metadata
			if meta["ContextPath"] != "." || meta["ProjectRootDirectory"] != "." {
				t.Error("Metadata needs ContextPath and ProjectRootDirectory '.' (the Makefile is at the root)")
			}
		})
	}
}

// TestTemplateNames: the template's functions, functions.Names() and the folders
// under functions/ are the same set.
func TestTemplateNames(t *testing.T) {
	tpl := loadTemplate(t)
	var folders []string
	for _, f := range tpl.Functions {
		folders = append(folders, f.Folder)
	}
	sort.Strings(folders)
	dirs, err := filepath.Glob(filepath.Join(root, "functions", "*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, d := range dirs {
		onDisk = append(onDisk, filepath.Base(filepath.Dir(d)))
	}
	names := functions.Names()
	cases := []struct {
		name string
		want []string
	}{
		{"functions.Names()", names},
		{"folders under functions/", onDisk},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := slices.Sorted(slices.Values(tc.want))
			if got := folders; !slices.Equal(got, want) {
				t.Errorf("template functions %v != %s %v", got, tc.name, want)
			}
		})
	}
}

// TestTemplateEnvironment: every function's environment has every variable
// pkg/app reads, except the local stack's.
func TestTemplateEnvironment(t *testing.T) {
	tpl := loadTemplate(t)
	read := envReadByApp(t)
	if len(read) == 0 {
		t.Fatal("found no os.Getenv/os.LookupEnv in pkg/app")
	}
	for _, name := range app.EnvNames {
		if !slices.Contains(read, name) {
			read = append(read, name)
		}
	}
	for _, f := range tpl.Functions {
		t.Run(f.LogicalID, func(t *testing.T) {
			for _, name := range read {
				if _, ok := f.Environment[name]; !ok && !localOnlyEnv[name] {
					t.Errorf("environment lacks %s, which pkg/app reads", name)
				}
			}
		})
	}
}

// TestTemplateAPI: the REST API (stage v1), its cached REQUEST authorizer,
// its gateway responses, and the routes: each on the API, served once, by a
// function that can count the request.
func TestTemplateAPI(t *testing.T) {
	tpl := loadTemplate(t)
	api := tpl.API
	if api == nil || api.StageName != "v1" {
		t.Fatalf("want an AWS::Serverless::Api with StageName v1, got %+v", api)
	}
	t.Run("authorizer", func(t *testing.T) {
		az, ok := api.Authorizers[api.DefaultAuthorizer]
		if !ok || az.PayloadType != "REQUEST" || !slices.Equal(az.IdentityHeaders, []string{"Authorization"}) || az.ReauthorizeEvery <= 0 {
			t.Errorf("default authorizer = %+v, want REQUEST on Authorization with caching", az)
		}
		if f, ok := tpl.Function(az.Function); !ok || f.Folder != "authorizer" {
			t.Errorf("authorizer function %s is not functions/authorizer", az.Function)
		}
	})
	t.Run("gateway responses", func(t *testing.T) {
		for _, typ := range []string{"UNAUTHORIZED", "ACCESS_DENIED", "THROTTLED", "MISSING_AUTHENTICATION_TOKEN", "RESOURCE_NOT_FOUND", "DEFAULT_4XX", "DEFAULT_5XX"} {
			if _, ok := api.GatewayResponses[typ]; !ok {
				t.Errorf("GatewayResponses lacks %s", typ)
			}
		}
	})
	t.Run("routes", func(t *testing.T) {
		routes := map[string]string{}
		for _, f := range tpl.Functions {
			for _, ev := range f.APIEvents {
				if ev.RestAPI != api.LogicalID {
					t.Errorf("%s.%s: RestApiId must be !Ref %s", f.LogicalID, ev.Name, api.LogicalID)
				}
				key := ev.Method + " " + ev.Path
				if other, dup := routes[key]; dup {
					t.Errorf("%s is served by both %s and %s", key, other, f.LogicalID)
				}
				routes[key] = f.LogicalID
			}
			if len(f.APIEvents) > 0 && !canCountRequests(grantsOf(t, tpl, f)) {
				t.Errorf("%s: HTTP functions need UpdateItem on the rate limiter's items (RateLimitPolicy or TableWritePolicy)", f.LogicalID)
			}
		}
	})
}

// TestTemplateQueues: dead-letter queues are of their queue's kind, and
// every SQS event source fits its queue (visibility, FIFO batch size,
// partial batch failures).
func TestTemplateQueues(t *testing.T) {
	tpl := loadTemplate(t)
	t.Run("dead-letter queues", func(t *testing.T) {
		for _, q := range tpl.Queues {
			if q.DeadLetterQueue == "" {
				continue
			}
			dlq, ok := tpl.Queue(q.DeadLetterQueue)
			if !ok || dlq.Fifo != q.Fifo {
				t.Errorf("%s: dead-letter queue %s missing or of another kind", q.LogicalID, q.DeadLetterQueue)
			}
		}
	})
	t.Run("event sources", func(t *testing.T) {
		for _, f := range tpl.Functions {
			for _, ev := range f.SQSEvents {
				q, ok := tpl.Queue(ev.Queue)
				if !ok {
					t.Errorf("%s.%s: queue %s is not an AWS::SQS::Queue", f.LogicalID, ev.Name, ev.Queue)
					continue
				}
				if q.VisibilityTimeout < f.Timeout {
					t.Errorf("%s: queue visibility %v is below the function timeout %v", q.LogicalID, q.VisibilityTimeout, f.Timeout)
				}
				if q.Fifo && ev.BatchSize > 10 {
					t.Errorf("%s.%s: FIFO batch size %d > 10", f.LogicalID, ev.Name, ev.BatchSize)
				}
				if !ev.ReportBatchItemFailures {
					t.Errorf("%s.%s: use FunctionResponseTypes [ReportBatchItemFailures]", f.LogicalID, ev.Name)
				}
			}
		}
	})
}

// TestTemplateStreams: every DynamoDB stream event source reports partial batch failures,
// bisects a failing batch, gives up after a bounded number of retries and then records the
// failure in a standard queue of the template, so one bad record never holds its shard for
// the day the stream keeps it. It runs over template.yaml and over testdata/stream.yaml, the
// stream blocks as template.yaml will have them.
func TestTemplateStreams(t *testing.T) {
	stream, err := template.ParseFile(filepath.Join("testdata", "stream.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		tpl  *template.Template
		min  int // DynamoDB events the template must have
	}{
		{"template.yaml", loadTemplate(t), 0},
		{"testdata/stream.yaml", stream, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			for _, f := range tc.tpl.Functions {
				for _, ev := range f.DynamoDBEvents {
					n++
					checkStreamEvent(t, tc.tpl, f, ev)
				}
			}
			if n < tc.min {
				t.Errorf("%d DynamoDB event sources, want at least %d", n, tc.min)
			}
		})
	}
}

func checkStreamEvent(t *testing.T, tpl *template.Template, f template.Function, ev template.DynamoDBEvent) {
	t.Helper()
	where := f.LogicalID + "." + ev.Name
	if !ev.ReportBatchItemFailures {
		t.Errorf("%s: use FunctionResponseTypes [ReportBatchItemFailures]", where)
	}
	if !ev.Bisect {
		t.Errorf("%s: set BisectBatchOnFunctionError: true", where)
	}
	if ev.MaximumRetryAttempts < 0 {
		t.Errorf("%s: bound MaximumRetryAttempts (the default retries for the stream's 24 hours)", where)
	}
	q, ok := tpl.Queue(ev.OnFailure)
	switch {
	case ev.OnFailure == "":
		t.Errorf("%s: set DestinationConfig.OnFailure to a queue of the template", where)
	case !ok:
		t.Errorf("%s: on-failure destination %s is not a queue of the template", where, ev.OnFailure)
	case q.Fifo:
		t.Errorf("%s: on-failure destination %s must be a standard queue", where, ev.OnFailure)
	}
}

// TestTemplateTable: every key attribute of the table and its indexes is
// defined; the table is on demand with TTL on ttl.
func TestTemplateTable(t *testing.T) {
	tpl := loadTemplate(t)
	tb := tpl.Table
	if tb == nil {
		t.Fatal("no DynamoDB table")
	}
	defined := map[string]bool{}
	for _, a := range tb.Attributes {
		defined[a.Name] = true
	}
	keys := []string{tb.HashKey, tb.RangeKey}
	for _, ix := range tb.GSIs {
		keys = append(keys, ix.HashKey, ix.RangeKey)
	}
	for _, k := range keys {
		if k != "" && !defined[k] {
			t.Errorf("key attribute %s has no AttributeDefinition", k)
		}
	}
	if tb.BillingMode != "PAY_PER_REQUEST" || tb.TTLAttribute != "ttl" {
		t.Errorf("table = %+v", tb)
	}
}

// TestTemplateKeys: the key of channel credentials is a symmetric encryption key with
// yearly rotation, retained with the stack's data, administered by the account's root (so
// IAM policies grant its use), and every function names it by its alias.
func TestTemplateKeys(t *testing.T) {
	tpl := loadTemplate(t)
	if len(tpl.Keys) != 1 {
		t.Fatalf("keys = %+v, want the one of channel credentials", tpl.Keys)
	}
	key := tpl.Keys[0]
	if key.KeySpec != "SYMMETRIC_DEFAULT" || key.KeyUsage != "ENCRYPT_DECRYPT" || !key.Rotation || len(key.Aliases) != 1 {
		t.Errorf("key = %+v, want a symmetric encryption key, rotated, with one alias", key)
	}
	raw := rawResource(tpl, key.LogicalID)
	if raw["DeletionPolicy"] != "Retain" || raw["UpdateReplacePolicy"] != "Retain" {
		t.Errorf("%s: DeletionPolicy and UpdateReplacePolicy must be Retain (without the key nothing sealed opens)", key.LogicalID)
	}
	statements := list(dig(tpl.Resources[key.LogicalID].Properties, "KeyPolicy", "Statement"))
	root := map[string]any{"Fn::Sub": "arn:${AWS::Partition}:iam::${AWS::AccountId}:root"}
	if len(statements) != 1 || !reflect.DeepEqual(dig(statements[0], "Principal", "AWS"), root) || dig(statements[0], "Action") != "kms:*" {
		t.Errorf("KeyPolicy statements %v, want one that lets the account's root administer the key", statements)
	}
	for _, f := range tpl.Functions {
		if got, want := f.Environment["CREDENTIALS_KEY_ID"], map[string]any{"Ref": key.Aliases[0].LogicalID}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: CREDENTIALS_KEY_ID = %v, want %v", f.LogicalID, got, want)
		}
	}
}

// TestConfigFromTemplateEnv sets each function's environment (as the Lambda runtime would)
// and checks that app.ConfigFromEnv then has every setting it needs on AWS.
func TestConfigFromTemplateEnv(t *testing.T) {
	tpl := loadTemplate(t)
	r := &template.Resolver{Template: tpl, StackName: "multisell", Region: "us-east-1", AccountID: "000000000000",
		Refs: map[string]string{}, Attrs: map[string]string{}}
	for id := range tpl.Resources {
		r.Refs[id] = "ref-" + id
		r.Attrs[id+".Arn"] = "arn-" + id
	}
	for _, f := range tpl.Functions {
		t.Run(f.Folder, func(t *testing.T) {
			for name := range localOnlyEnv {
				t.Setenv(name, "")
			}
			t.Setenv("AWS_REGION", "us-east-1")
			for name, v := range f.Environment {
				s, err := r.String(v)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				t.Setenv(name, s)
			}
			cfg := reflect.ValueOf(app.ConfigFromEnv())
			for i := 0; i < cfg.NumField(); i++ {
				field := cfg.Type().Field(i)
				if field.Type.Kind() != reflect.String || strings.HasSuffix(field.Name, "Endpoint") {
					continue
				}
				if cfg.Field(i).String() == "" {
					t.Errorf("app.Config.%s is empty with the template's environment", field.Name)
				}
			}
		})
	}
}

func pascal(folder string) string {
	var b strings.Builder
	for _, part := range strings.Split(folder, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// envReadByApp lists the names pkg/app passes to os.Getenv or os.LookupEnv (string
// literals, or constants of the package).
func envReadByApp(t *testing.T) []string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, "pkg", "app", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	var calls []*ast.CallExpr
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, name := range x.Names {
					if i < len(x.Values) {
						if lit, ok := x.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							consts[name.Name], _ = strconv.Unquote(lit.Value)
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) == 1 {
					if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "os" && (sel.Sel.Name == "Getenv" || sel.Sel.Name == "LookupEnv") {
						calls = append(calls, x)
					}
				}
				// ConfigFrom reads through its getenv parameter.
				if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "getenv" && len(x.Args) == 1 {
					calls = append(calls, x)
				}
			}
			return true
		})
	}
	seen := map[string]bool{}
	var names []string
	for _, c := range calls {
		var name string
		switch a := c.Args[0].(type) {
		case *ast.BasicLit:
			name, _ = strconv.Unquote(a.Value)
		case *ast.Ident:
			name = consts[a.Name]
		}
		if name != "" && !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}
