package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
	ep := Endpoints{DynamoDB: emulator(t, "dynoxide").Endpoint, SQS: emulator(t, "fauxqs").Endpoint}
	s, err := Provision(context.Background(), tpl, ep, ProvisionOptions{StackName: stackName})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestProvision provisions a small template twice and checks what the
// emulators then hold and what the stack tells the app.
func TestProvision(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	doc := strings.Replace(string(testdata(t, "provision.yaml")), "TABLE_NAME_PLACEHOLDER", "prov-table", 1)
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
