package gateway

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/template"
)

// Stack is a provisioned local stack: the physical names of the template's resources on
// the emulators, and clients for them.
type Stack struct {
	// Name is the local stack name (the value of AWS::StackName).
	Name      string
	Region    string
	AccountID string
	Endpoints Endpoints
	// TableName is the DynamoDB table's name ("" when the template has no table).
	TableName string
	// TableCreated is set when Provision created the table (it did not exist before).
	TableCreated bool
	// StreamARN is the table's stream (DescribeTable's LatestStreamArn) when the template
	// gives the table a StreamSpecification, else "".
	StreamARN string
	// Queues holds each queue by logical id.
	Queues map[string]QueueInfo
	// DynamoDB, DynamoDBStreams and SQS are clients for the emulators (the streams API is
	// served on the DynamoDB endpoint).
	DynamoDB        *dynamodb.Client
	DynamoDBStreams *dynamodbstreams.Client
	SQS             *sqs.Client
	// KMS is a client for the KMS emulator.
	KMS *kms.Client

	template *template.Template
	resolver *template.Resolver
}

// QueueInfo names a provisioned queue.
type QueueInfo struct {
	LogicalID string
	Name      string
	URL       string
	ARN       string
}

// Template returns the template the stack was provisioned from.
func (s *Stack) Template() *template.Template { return s.template }

// Env resolves a function's environment variables for this stack.
func (s *Stack) Env(f *template.Function) (map[string]string, error) {
	env := make(map[string]string, len(f.Environment))
	for name, v := range f.Environment {
		val, err := s.resolver.String(v)
		if err != nil {
			return nil, fmt.Errorf("function %s: environment %s: %w", f.LogicalID, name, err)
		}
		env[name] = val
	}
	return env, nil
}

// AppConfig returns the application configuration of the local stack: the functions'
// resolved environment plus the emulator endpoints and region. All functions run in one
// process locally, so their environments are merged; they must agree.
func (s *Stack) AppConfig() (app.Config, error) {
	merged := map[string]string{}
	for i := range s.template.Functions {
		env, err := s.Env(&s.template.Functions[i])
		if err != nil {
			return app.Config{}, err
		}
		for k, v := range env {
			if old, ok := merged[k]; ok && old != v {
				return app.Config{}, fmt.Errorf("environment %s differs between functions (%q, %q)", k, old, v)
			}
			merged[k] = v
		}
	}
	merged["DYNAMODB_ENDPOINT"], merged["SQS_ENDPOINT"], merged["AWS_REGION"] = s.Endpoints.DynamoDB, s.Endpoints.SQS, s.Region
	merged["KMS_ENDPOINT"] = s.Endpoints.KMS
	merged["WEBHOOK_LOOPBACK"] = "true" // receivers on this machine, over http (docs/webhooks.md)
	return app.ConfigFrom(func(k string) string { return merged[k] }), nil
}
