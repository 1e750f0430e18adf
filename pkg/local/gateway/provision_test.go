package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	texttemplate "text/template"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/local/template"
)

func provisionFromYAML(t *testing.T, doc, stackName string) *Stack {
	t.Helper()
	tpl, err := template.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	ep := Endpoints{DynamoDB: emulator(t, "dynoxide").Endpoint, SQS: emulator(t, "fauxqs").Endpoint, KMS: emulator(t, "local-kms").Endpoint}
	s, err := Provision(context.Background(), tpl, ep, ProvisionOptions{StackName: stackName})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// provisionKeyYAML is a KMS key with two aliases, and a function environment that names
// the key by its alias.
const provisionKeyYAML = `
  Key:
    Type: AWS::KMS::Key
    Properties: {Description: test key, EnableKeyRotation: true}
  KeyAlias:
    Type: AWS::KMS::Alias
    Properties: {AliasName: alias/prov-test-key, TargetKeyId: !Ref Key}
  SecondAlias:
    Type: AWS::KMS::Alias
    Properties: {AliasName: alias/prov-second-name, TargetKeyId: !GetAtt Key.Arn}
  KeyUser:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: functions/key-user/
      Environment: {Variables: {KEY: !Ref KeyAlias}}
`

// TestProvision provisions a small template twice and checks what the
// emulators then hold and what the stack tells the app.
func TestProvision(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	doc := strings.Replace(string(testdata(t, "provision.yaml")), "TABLE_NAME_PLACEHOLDER", "prov-table", 1) + provisionKeyYAML
	s := provisionFromYAML(t, doc, "prov")
	if !s.TableCreated || s.TableName != "prov-table" {
		t.Errorf("table = %q created=%v", s.TableName, s.TableCreated)
	}

	t.Run("idempotent", func(t *testing.T) {
		// A second run keeps the table and the queues.
		again := provisionFromYAML(t, doc, "prov")
		if again.TableCreated {
			t.Error("second Provision created the table again")
		}
		if got, want := again.Queues["Work"].URL, s.Queues["Work"].URL; got != want {
			t.Errorf("queue URL changed: %q -> %q", want, got)
		}
		if got, want := again.resolver.Refs["Key"], s.resolver.Refs["Key"]; got != want {
			t.Errorf("key changed: %q -> %q", want, got)
		}
	})

	t.Run("key", func(t *testing.T) {
		fn, _ := s.Template().Function("KeyUser")
		env, err := s.Env(fn)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := env["KEY"], "alias/prov-test-key"; got != want {
			t.Errorf("KEY = %q, want %q", got, want)
		}
		desc, err := s.KMS.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String("alias/prov-second-name")})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := aws.ToString(desc.KeyMetadata.KeyId), s.resolver.Refs["Key"]; got != want || aws.ToString(desc.KeyMetadata.Description) != "test key" {
			t.Errorf("alias/prov-second-name is key %q (%+v), want %q", got, desc.KeyMetadata, want)
		}
		rot, err := s.KMS.GetKeyRotationStatus(ctx, &kms.GetKeyRotationStatusInput{KeyId: desc.KeyMetadata.KeyId})
		if err != nil {
			t.Fatal(err)
		}
		if !rot.KeyRotationEnabled {
			t.Error("key rotation is off, want on")
		}
	})

	t.Run("table", func(t *testing.T) {
		desc, err := s.DynamoDB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("prov-table")})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(desc.Table.GlobalSecondaryIndexes); n != 1 || aws.ToString(desc.Table.GlobalSecondaryIndexes[0].IndexName) != "GSI1" {
			t.Errorf("GSIs = %+v", desc.Table.GlobalSecondaryIndexes)
		}
		ttl, err := s.DynamoDB.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("prov-table")})
		if err != nil {
			t.Fatal(err)
		}
		if ttl.TimeToLiveDescription.TimeToLiveStatus != ddbtypes.TimeToLiveStatusEnabled || aws.ToString(ttl.TimeToLiveDescription.AttributeName) != "ttl" {
			t.Errorf("TTL = %+v", ttl.TimeToLiveDescription)
		}
	})

	work := s.Queues["Work"]
	t.Run("queue names", func(t *testing.T) {
		for _, tc := range []struct{ queue, want string }{
			{"Work", "prov-work.fifo"},
			{"WorkDLQ", "prov-WorkDLQ.fifo"},
			{"Plain", "prov-Plain"},
		} {
			if got := s.Queues[tc.queue].Name; got != tc.want {
				t.Errorf("queue %s is named %q, want %q (queues %+v)", tc.queue, got, tc.want, s.Queues)
			}
		}
	})

	t.Run("queue attributes", func(t *testing.T) {
		attrs, err := s.SQS.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
			QueueUrl: aws.String(work.URL), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameAll},
		})
		if err != nil {
			t.Fatal(err)
		}
		var redrive struct {
			Target string `json:"deadLetterTargetArn"`
			Max    any    `json:"maxReceiveCount"`
		}
		if err := json.Unmarshal([]byte(attrs.Attributes["RedrivePolicy"]), &redrive); err != nil {
			t.Fatalf("RedrivePolicy %q: %v", attrs.Attributes["RedrivePolicy"], err)
		}
		if redrive.Target != s.Queues["WorkDLQ"].ARN || attrs.Attributes["VisibilityTimeout"] != "45" || attrs.Attributes["FifoQueue"] != "true" {
			t.Errorf("attributes = %v", attrs.Attributes)
		}
	})

	t.Run("app config", func(t *testing.T) {
		cfg, err := s.AppConfig()
		if err != nil {
			t.Fatal(err)
		}
		if cfg.TableName != "prov-table" || cfg.AdjustmentsQueueURL != work.URL || cfg.ChannelInboxQueueURL != s.Queues["Plain"].URL ||
			cfg.DynamoDBEndpoint == "" || cfg.SQSEndpoint == "" || cfg.Region != "us-east-1" {
			t.Errorf("config = %+v", cfg)
		}
	})

	t.Run("function environment", func(t *testing.T) {
		fn, _ := s.Template().Function("Fn")
		env, err := s.Env(fn)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ name, want string }{
			{"DLQ_ARN", s.Queues["WorkDLQ"].ARN},
			{"NAME", "prov-prov-Fn"},
		} {
			if got := env[tc.name]; got != tc.want {
				t.Errorf("%s = %q, want %q (env %v)", tc.name, got, tc.want, env)
			}
		}
	})
}

// TestProvisionAddsIndexes checks that a table kept from an older template gets the
// indexes added to the template since.
func TestProvisionAddsIndexes(t *testing.T) {
	t.Parallel()
	doc := strings.Replace(string(testdata(t, "provision.yaml")), "TABLE_NAME_PLACEHOLDER", "grow-table", 1)
	i := strings.Index(doc, "      GlobalSecondaryIndexes:")
	j := strings.Index(doc, "      TimeToLiveSpecification:")
	old := doc[:i] + doc[j:]
	old = strings.Replace(old, "        - {AttributeName: GSI1PK, AttributeType: S}\n        - {AttributeName: GSI1SK, AttributeType: S}\n", "", 1)
	provisionFromYAML(t, old, "grow")
	s := provisionFromYAML(t, doc, "grow")
	desc, err := s.DynamoDB.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("grow-table")})
	if err != nil {
		t.Fatal(err)
	}
	if len(desc.Table.GlobalSecondaryIndexes) != 1 {
		t.Errorf("GSIs after upgrade = %+v", desc.Table.GlobalSecondaryIndexes)
	}
}

// streamSettings fill testdata/stream.yaml.
type streamSettings struct {
	Table              string
	ViewType           string // "" for a table without a stream
	StartingPosition   string
	BatchSize          int
	Window             int
	Bisect             bool
	Retries            int
	ReportItemFailures bool
	Filter             string
}

// defaults returns the settings with the zero values replaced by the tests' defaults: a
// NEW_AND_OLD_IMAGES stream read from TRIM_HORIZON in batches of 10, no window, bisect, two
// retries and partial batch failures.
func (s streamSettings) defaults() streamSettings {
	if s.ViewType == "" {
		s.ViewType = "NEW_AND_OLD_IMAGES"
	}
	if s.StartingPosition == "" {
		s.StartingPosition = "TRIM_HORIZON"
	}
	if s.BatchSize == 0 {
		s.BatchSize = 10
	}
	return s
}

func streamTemplate(t *testing.T, s streamSettings) string {
	t.Helper()
	tmpl, err := texttemplate.New("stream").Option("missingkey=error").Parse(string(testdata(t, "stream.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, s); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// provisionOn provisions a template on a DynamoDB backend (and fauxqs).
func provisionOn(t *testing.T, backend, doc, stackName string) *Stack {
	t.Helper()
	tpl, err := template.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	ep := Endpoints{DynamoDB: emulator(t, backend).Endpoint, SQS: emulator(t, "fauxqs").Endpoint}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Provision(ctx, tpl, ep, ProvisionOptions{StackName: stackName})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// forEachBackend runs f as a parallel subtest on every DynamoDB backend.
func forEachBackend(t *testing.T, f func(t *testing.T, backend string)) {
	t.Helper()
	for _, backend := range dynamoBackends {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			f(t, backend)
		})
	}
}

// uniqueName is a table or stack name no other test uses.
func uniqueName(t *testing.T, backend string) string {
	t.Helper()
	r := strings.NewReplacer("/", "-", " ", "-", ",", "", "(", "", ")", "", ":", "")
	name := strings.ToLower(r.Replace(t.Name()))
	if len(name) > 50 {
		name = name[len(name)-50:]
	}
	return strings.Trim(name, "-") + "-" + strconv.FormatInt(time.Now().UnixNano()%1e6, 10)
}

// TestProvisionStream: the table gets the template's stream (also when it existed without
// one, or with another view type), and the stack knows its ARN.
func TestProvisionStream(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		ctx := context.Background()
		name := uniqueName(t, backend)
		describe := func(t *testing.T, s *Stack) (arn string, view ddbtypes.StreamViewType) {
			t.Helper()
			out, err := s.DynamoDB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.TableName)})
			if err != nil {
				t.Fatal(err)
			}
			if spec := out.Table.StreamSpecification; spec != nil && aws.ToBool(spec.StreamEnabled) {
				view = spec.StreamViewType
			}
			return aws.ToString(out.Table.LatestStreamArn), view
		}
		doc := func(view string) string {
			return streamTemplate(t, streamSettings{Table: name, ViewType: view, StartingPosition: "LATEST", BatchSize: 1})
		}

		plain := provisionOn(t, backend, doc(""), name)
		if _, view := describe(t, plain); plain.StreamARN != "" || view != "" {
			t.Fatalf("a table without StreamSpecification has a stream: %q %q", plain.StreamARN, view)
		}
		var arn string
		steps := []struct {
			name    string
			view    string
			newARN  bool // a stream other than the previous step's
			created bool
		}{
			{"enabled on the existing table", "NEW_AND_OLD_IMAGES", true, false},
			{"kept", "NEW_AND_OLD_IMAGES", false, false},
			{"replaced for another view type", "KEYS_ONLY", true, false},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				s := provisionOn(t, backend, doc(st.view), name)
				gotARN, view := describe(t, s)
				if s.StreamARN == "" || s.StreamARN != gotARN || string(view) != st.view || s.TableCreated != st.created {
					t.Fatalf("stack stream %q, table stream %q %q, created %v; want %s", s.StreamARN, gotARN, view, s.TableCreated, st.view)
				}
				if (s.StreamARN != arn) != st.newARN {
					t.Errorf("stream ARN %q after %q: want a new one %v", s.StreamARN, arn, st.newARN)
				}
				arn = s.StreamARN
				fn, _ := s.Template().Function("SyncFunction")
				env, err := s.Env(fn)
				if err != nil || env["STREAM_ARN"] != s.StreamARN {
					t.Errorf("!GetAtt Table.StreamArn = %q, %v; want %q", env["STREAM_ARN"], err, s.StreamARN)
				}
			})
		}
	})
}
