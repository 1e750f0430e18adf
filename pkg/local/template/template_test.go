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
	"github.com/multisell/multisell/pkg/local/template"
)

// root is the repository root, relative to this package.
const root = "../../.."

// localOnlyEnv are variables app reads that the template must not set: the emulator
// endpoints (local stack only) and AWS_REGION (set by the Lambda runtime).
var localOnlyEnv = map[string]bool{"DYNAMODB_ENDPOINT": true, "SQS_ENDPOINT": true, "AWS_REGION": true}

func loadTemplate(t *testing.T) *template.Template {
	t.Helper()
	tpl, err := template.ParseFile(filepath.Join(root, "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

// TestTemplate checks template.yaml against the code and the conventions the Makefile and
// the local stack rely on.
func TestTemplate(t *testing.T) {
	tpl := loadTemplate(t)

	t.Run("references", func(t *testing.T) {
		for _, err := range tpl.CheckReferences() {
			t.Error(err)
		}
	})

	t.Run("functions", func(t *testing.T) {
		for _, f := range tpl.Functions {
			if want := "functions/" + f.Folder + "/"; f.CodeURI != want {
				t.Errorf("%s: CodeUri %q, want %q", f.LogicalID, f.CodeURI, want)
			}
			if _, err := os.Stat(filepath.Join(root, "functions", f.Folder, "main.go")); err != nil {
				t.Errorf("%s: %v", f.LogicalID, err)
			}
			if want := pascal(f.Folder) + "Function"; f.LogicalID != want {
				t.Errorf("%s: logical id must be %s (make build-<LogicalId> derives the folder from it)", f.LogicalID, want)
			}
			if f.BuildMethod != "makefile" || f.Runtime != "provided.al2023" || f.Handler != "bootstrap" || !slices.Equal(f.Architectures, []string{"arm64"}) {
				t.Errorf("%s: want makefile build, provided.al2023, bootstrap, arm64; got %+v", f.LogicalID, f)
			}
			meta := tpl.Resources[f.LogicalID].Metadata
			if meta["ContextPath"] != "." || meta["ProjectRootDirectory"] != "." {
				t.Errorf("%s: Metadata needs ContextPath and ProjectRootDirectory '.' (the Makefile is at the root)", f.LogicalID)
			}
		}
	})

	t.Run("names match app.Names", func(t *testing.T) {
		var folders []string
		for _, f := range tpl.Functions {
			folders = append(folders, f.Folder)
		}
		names := append([]string(nil), app.Names()...)
		sort.Strings(folders)
		sort.Strings(names)
		if !slices.Equal(folders, names) {
			t.Errorf("template functions %v != app.Names() %v", folders, names)
		}
		dirs, err := filepath.Glob(filepath.Join(root, "functions", "*", "main.go"))
		if err != nil {
			t.Fatal(err)
		}
		var onDisk []string
		for _, d := range dirs {
			onDisk = append(onDisk, filepath.Base(filepath.Dir(d)))
		}
		sort.Strings(onDisk)
		if !slices.Equal(folders, onDisk) {
			t.Errorf("template functions %v != folders under functions/ %v", folders, onDisk)
		}
	})

	t.Run("environment", func(t *testing.T) {
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
			for _, name := range read {
				if _, ok := f.Environment[name]; !ok && !localOnlyEnv[name] {
					t.Errorf("%s: environment lacks %s, which pkg/app reads", f.LogicalID, name)
				}
			}
		}
	})

	t.Run("api", func(t *testing.T) {
		api := tpl.API
		if api == nil || api.StageName != "v1" {
			t.Fatalf("want an AWS::Serverless::Api with StageName v1, got %+v", api)
		}
		az, ok := api.Authorizers[api.DefaultAuthorizer]
		if !ok || az.PayloadType != "REQUEST" || !slices.Equal(az.IdentityHeaders, []string{"Authorization"}) || az.ReauthorizeEvery <= 0 {
			t.Errorf("default authorizer = %+v, want REQUEST on Authorization with caching", az)
		}
		if f, ok := tpl.Function(az.Function); !ok || f.Folder != "authorizer" {
			t.Errorf("authorizer function %s is not functions/authorizer", az.Function)
		}
		for _, typ := range []string{"UNAUTHORIZED", "ACCESS_DENIED", "THROTTLED", "MISSING_AUTHENTICATION_TOKEN", "RESOURCE_NOT_FOUND", "DEFAULT_4XX", "DEFAULT_5XX"} {
			if _, ok := api.GatewayResponses[typ]; !ok {
				t.Errorf("GatewayResponses lacks %s", typ)
			}
		}
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
			if len(f.APIEvents) > 0 && !canCountRequests(f) {
				t.Errorf("%s: HTTP functions need DynamoDBCrudPolicy, or DynamoDBReadPolicy and UpdateItem for the rate limiter", f.LogicalID)
			}
		}
	})

	t.Run("queues", func(t *testing.T) {
		for _, q := range tpl.Queues {
			if q.DeadLetterQueue == "" {
				continue
			}
			dlq, ok := tpl.Queue(q.DeadLetterQueue)
			if !ok || dlq.Fifo != q.Fifo {
				t.Errorf("%s: dead-letter queue %s missing or of another kind", q.LogicalID, q.DeadLetterQueue)
			}
		}
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

	t.Run("table", func(t *testing.T) {
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
	})
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

// canCountRequests reports whether f may write the rate limiter's item:
// full CRUD, or read plus a statement allowing dynamodb:UpdateItem.
func canCountRequests(f template.Function) bool {
	if hasPolicy(f, "DynamoDBCrudPolicy") {
		return true
	}
	if !hasPolicy(f, "DynamoDBReadPolicy") {
		return false
	}
	for _, p := range f.Policies {
		m, _ := p.(map[string]any)
		stmts, _ := m["Statement"].([]any)
		for _, st := range stmts {
			if sm, _ := st.(map[string]any); sm["Effect"] == "Allow" && sm["Action"] == "dynamodb:UpdateItem" {
				return true
			}
		}
	}
	return false
}

func hasPolicy(f template.Function, name string) bool {
	for _, p := range f.Policies {
		if m, ok := p.(map[string]any); ok {
			if _, ok := m[name]; ok {
				return true
			}
		}
		if p == name {
			return true
		}
	}
	return false
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
