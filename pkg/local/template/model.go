package template

import "time"

// Resource types the model understands.
const (
	TypeFunction = "AWS::Serverless::Function"
	TypeAPI      = "AWS::Serverless::Api"
	TypeTable    = "AWS::DynamoDB::Table"
	TypeQueue    = "AWS::SQS::Queue"
	TypeKMSKey   = "AWS::KMS::Key"
	TypeKMSAlias = "AWS::KMS::Alias"
)

// Template is a parsed SAM template.
type Template struct {
	// Path is the file the template was read from ("" when parsed from bytes).
	Path string
	// Doc is the whole document as plain values with intrinsics in long form.
	Doc map[string]any
	// Parameters holds each parameter's definition (Type, Default, ...).
	Parameters map[string]map[string]any
	// Resources holds every resource by logical id.
	Resources map[string]Resource
	// Functions lists the AWS::Serverless::Function resources, sorted by logical id,
	// with the Globals.Function section merged in.
	Functions []Function
	// API is the AWS::Serverless::Api resource, nil when the template has none.
	API *API
	// Table is the DynamoDB table, nil when the template has none.
	Table *Table
	// Queues lists the SQS queues, sorted by logical id.
	Queues []Queue
	// Keys lists the KMS keys, sorted by logical id, each with its aliases.
	Keys []Key
}

// Resource is one entry of the Resources section.
type Resource struct {
	LogicalID  string
	Type       string
	Properties map[string]any
	Metadata   map[string]any
}

// Function is an AWS::Serverless::Function with Globals applied.
type Function struct {
	LogicalID string
	// CodeURI is the CodeUri property as written (functions/<folder>/).
	CodeURI string
	// Folder is the last element of CodeURI: the folder name under functions/ and the
	// name the application registers the handler under.
	Folder        string
	Runtime       string
	Handler       string
	Architectures []string
	MemorySize    int
	Timeout       time.Duration
	// BuildMethod is Metadata.BuildMethod (makefile).
	BuildMethod string
	// Environment holds the environment variables, unresolved (values may be intrinsics).
	Environment map[string]any
	// Policies is the Policies property as written.
	Policies []any
	// APIEvents lists the function's events of type Api, sorted by name.
	APIEvents []APIEvent
	// SQSEvents lists the function's events of type SQS, sorted by name.
	SQSEvents []SQSEvent
	// DynamoDBEvents lists the function's events of type DynamoDB, sorted by name.
	DynamoDBEvents []DynamoDBEvent
	// ScheduleEvents lists the function's events of type Schedule, sorted by name.
	ScheduleEvents []ScheduleEvent
}

// ScheduleEvent is an event source of type Schedule with a rate expression
// (rate(5 minutes)); cron expressions are not supported.
type ScheduleEvent struct {
	Name    string
	Rate    time.Duration
	Enabled bool
}

// APIEvent is an event source of type Api.
type APIEvent struct {
	Name   string
	Path   string
	Method string // upper case; ANY matches every method
	// RestAPI is the logical id in RestApiId ("" means SAM's implicit API).
	RestAPI string
	// Authorizer is the Auth.Authorizer override ("" means the API's default, "NONE" none).
	Authorizer string
}

// SQSEvent is an event source of type SQS (a Lambda event source mapping).
type SQSEvent struct {
	Name string
	// Queue is the logical id of the queue (Queue: !GetAtt X.Arn).
	Queue     string
	BatchSize int
	// MaxBatchingWindow is MaximumBatchingWindowInSeconds.
	MaxBatchingWindow time.Duration
	// MaxConcurrency is ScalingConfig.MaximumConcurrency (0 without one).
	MaxConcurrency int
	// ReportBatchItemFailures is set when FunctionResponseTypes has ReportBatchItemFailures.
	ReportBatchItemFailures bool
	Enabled                 bool
}

// DynamoDBEvent is an event source of type DynamoDB: a Lambda event source mapping on the
// table's stream.
type DynamoDBEvent struct {
	Name string
	// Stream is the logical id of the table whose stream is read (Stream: !GetAtt X.StreamArn).
	Stream string
	// StartingPosition is TRIM_HORIZON or LATEST.
	StartingPosition string
	// BatchSize is the most records per invocation (default 100).
	BatchSize int
	// MaxBatchingWindow is MaximumBatchingWindowInSeconds: how long to gather records before
	// invoking with a batch that is not full.
	MaxBatchingWindow time.Duration
	// Bisect is BisectBatchOnFunctionError: a failed batch is split in two and the halves
	// retried.
	Bisect bool
	// MaximumRetryAttempts bounds the retries of a failed batch; -1 (the default, as on AWS)
	// retries until the records expire from the stream.
	MaximumRetryAttempts int
	// MaximumRecordAge is MaximumRecordAgeInSeconds; 0 when infinite (-1, the default).
	MaximumRecordAge time.Duration
	// ReportBatchItemFailures is set when FunctionResponseTypes has ReportBatchItemFailures.
	ReportBatchItemFailures bool
	// OnFailure is the logical id of the queue of DestinationConfig.OnFailure ("" for none).
	OnFailure string
	// ParallelizationFactor is the number of concurrent batches per shard; only 1 is
	// supported locally.
	ParallelizationFactor int
	// Filters are the FilterCriteria patterns; a record is delivered when it matches any of
	// them (or when there are none).
	Filters []*FilterPattern
	Enabled bool
}

// API is the AWS::Serverless::Api resource.
type API struct {
	LogicalID string
	StageName string
	// DefaultAuthorizer names the entry of Authorizers used by routes without an override.
	DefaultAuthorizer string
	Authorizers       map[string]Authorizer
	// GatewayResponses holds the customized gateway responses by type (UNAUTHORIZED, ...).
	GatewayResponses map[string]GatewayResponse
	// APIKeySource is ApiKeySourceType: HEADER (the default) or AUTHORIZER, where the
	// authorizer's usageIdentifierKey names the request's API key.
	APIKeySource string
	// APIKeyRequired is Auth.ApiKeyRequired: every method needs an API key on a usage
	// plan, whose throttle then applies to it.
	APIKeyRequired bool
}

// Authorizer is a Lambda authorizer of the API.
type Authorizer struct {
	Name string
	// Function is the logical id of the authorizer function (FunctionArn: !GetAtt X.Arn).
	Function    string
	PayloadType string // TOKEN or REQUEST
	// IdentityHeaders are the headers of the identity source (REQUEST authorizers).
	IdentityHeaders []string
	// ReauthorizeEvery is the result cache TTL (0 disables caching).
	ReauthorizeEvery time.Duration
}

// GatewayResponse is a customized API Gateway response.
type GatewayResponse struct {
	// StatusCode is 0 when the response type's own status is kept.
	StatusCode int
	// Headers holds static header values (the quotes of 'value' removed) and raw mapping
	// expressions (method.request.header.X) otherwise.
	Headers map[string]string
	// Templates holds the response templates by content type.
	Templates map[string]string
}

// AuthorizerFor returns the authorizer that applies to an API event, or nil for none.
func (a *API) AuthorizerFor(ev APIEvent) *Authorizer {
	if a == nil {
		return nil
	}
	name := a.DefaultAuthorizer
	if ev.Authorizer != "" {
		name = ev.Authorizer
	}
	if name == "" || name == "NONE" {
		return nil
	}
	az, ok := a.Authorizers[name]
	if !ok {
		return nil
	}
	return &az
}

// Table is the DynamoDB table definition.
type Table struct {
	LogicalID string
	// TableName is the TableName property ("" when CloudFormation names the table).
	TableName    string
	BillingMode  string
	Attributes   []AttributeDefinition
	HashKey      string
	RangeKey     string
	GSIs         []Index
	LSIs         []Index
	TTLAttribute string // "" when TTL is not enabled
	// StreamViewType is StreamSpecification.StreamViewType ("" when the table has no stream).
	StreamViewType string
}

// AttributeDefinition is a key attribute and its type (S, N or B).
type AttributeDefinition struct {
	Name string
	Type string
}

// Index is a secondary index.
type Index struct {
	Name             string
	HashKey          string
	RangeKey         string
	ProjectionType   string
	NonKeyAttributes []string
}

// Queue is an SQS queue.
type Queue struct {
	LogicalID string
	// QueueName is the QueueName property, unresolved ("" when CloudFormation names it).
	QueueName                 any
	Fifo                      bool
	ContentBasedDeduplication bool
	DeduplicationScope        string
	FifoThroughputLimit       string
	VisibilityTimeout         time.Duration // default 30 s
	MessageRetentionPeriod    time.Duration // default 4 days
	Delay                     time.Duration
	ReceiveMessageWaitTime    time.Duration
	// DeadLetterQueue is the logical id of the redrive target ("" without a redrive policy).
	DeadLetterQueue string
	MaxReceiveCount int
}

// Key is a KMS key (AWS::KMS::Key) with the aliases (AWS::KMS::Alias) that name it.
type Key struct {
	LogicalID   string
	Description string
	// KeySpec is SYMMETRIC_DEFAULT unless the template says otherwise.
	KeySpec string
	// KeyUsage is ENCRYPT_DECRYPT unless the template says otherwise.
	KeyUsage string
	// Rotation is EnableKeyRotation: KMS rotates the key's material every year.
	Rotation bool
	// Aliases are the aliases whose TargetKeyId is this key, sorted by name.
	Aliases []Alias
}

// Alias is an AWS::KMS::Alias: a name (alias/...) for a key of the template.
type Alias struct {
	LogicalID string
	// Name is the AliasName property.
	Name string
}

// Function returns the function with the given logical id.
func (t *Template) Function(logicalID string) (*Function, bool) {
	for i := range t.Functions {
		if t.Functions[i].LogicalID == logicalID {
			return &t.Functions[i], true
		}
	}
	return nil, false
}

// FunctionByFolder returns the function whose CodeUri folder is name.
func (t *Template) FunctionByFolder(name string) (*Function, bool) {
	for i := range t.Functions {
		if t.Functions[i].Folder == name {
			return &t.Functions[i], true
		}
	}
	return nil, false
}

// Queue returns the queue with the given logical id.
func (t *Template) Queue(logicalID string) (*Queue, bool) {
	for i := range t.Queues {
		if t.Queues[i].LogicalID == logicalID {
			return &t.Queues[i], true
		}
	}
	return nil, false
}
