package template

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// parseSample parses testdata/sample.yaml, a small template with one of
// every construct the parser reads.
func parseSample(t *testing.T) *Template {
	t.Helper()
	tpl, err := ParseFile(filepath.Join("testdata", "sample.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

func TestParse(t *testing.T) {
	t.Parallel()
	tpl := parseSample(t)
	items, ok := tpl.Function("ItemsFunction")
	if !ok {
		t.Fatal("ItemsFunction missing")
	}
	if items.Folder != "items" || items.Timeout != 20*time.Second || items.Runtime != "provided.al2023" || items.BuildMethod != "makefile" {
		t.Errorf("function = %+v", items)
	}
	if got := asStrings(mergeGlobals(asMap(asMap(tpl.Doc["Globals"])["Function"]), tpl.Resources["ItemsFunction"].Properties)["Layers"]); !reflect.DeepEqual(got, []string{"a", "b"}) {
		t.Errorf("lists are additive: %v", got)
	}
	if len(items.Environment) != 3 {
		t.Errorf("env = %v, want globals merged", items.Environment)
	}
	if len(items.APIEvents) != 2 || items.APIEvents[0].Path != "/items/{id}" || items.APIEvents[0].Method != "GET" || items.APIEvents[0].RestAPI != "Api" {
		t.Errorf("api events = %+v", items.APIEvents)
	}
	if items.APIEvents[1].Authorizer != "NONE" || tpl.API.AuthorizerFor(items.APIEvents[1]) != nil {
		t.Errorf("NONE authorizer = %+v", items.APIEvents[1])
	}
	if az := tpl.API.AuthorizerFor(items.APIEvents[0]); az == nil || az.Function != "AuthFunction" || az.ReauthorizeEvery != 0 || az.PayloadType != "REQUEST" {
		t.Errorf("authorizer = %+v", az)
	}
	want := SQSEvent{Name: "Queue", Queue: "Q", BatchSize: 7, ReportBatchItemFailures: true, Enabled: true}
	if !reflect.DeepEqual(items.SQSEvents, []SQSEvent{want}) {
		t.Errorf("sqs events = %+v", items.SQSEvents)
	}
	gr := tpl.API.GatewayResponses["UNAUTHORIZED"]
	if gr.StatusCode != 401 || gr.Headers["WWW-Authenticate"] != `Basic realm="x"` || gr.Templates["application/json"] != `{"error":"no"}` {
		t.Errorf("gateway response = %+v", gr)
	}
	if tpl.Table.HashKey != "PK" || tpl.Table.RangeKey != "SK" || tpl.Table.TTLAttribute != "ttl" {
		t.Errorf("table = %+v", tpl.Table)
	}
	q, _ := tpl.Queue("Q")
	if !q.Fifo || q.VisibilityTimeout != time.Minute || q.DeadLetterQueue != "DLQ" || q.MaxReceiveCount != 3 {
		t.Errorf("queue = %+v", q)
	}
	if dlq, _ := tpl.Queue("DLQ"); !dlq.Fifo || dlq.VisibilityTimeout != 30*time.Second {
		t.Errorf("dlq = %+v", dlq)
	}
	errs := tpl.CheckReferences()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "Nope.Arn") {
		t.Errorf("CheckReferences = %v, want only Nope.Arn", errs)
	}
}

// TestParseKeys: a KMS key with its defaults, and its aliases, sorted by name, whether they
// name it by !Ref, !GetAtt .Arn or !GetAtt .KeyId.
func TestParseKeys(t *testing.T) {
	t.Parallel()
	doc := `Resources:
  K:
    Type: AWS::KMS::Key
    Properties: {Description: d, EnableKeyRotation: true}
  Plain:
    Type: AWS::KMS::Key
  B:
    Type: AWS::KMS::Alias
    Properties: {AliasName: alias/b, TargetKeyId: !GetAtt K.Arn}
  A:
    Type: AWS::KMS::Alias
    Properties: {AliasName: alias/a, TargetKeyId: !Ref K}
  C:
    Type: AWS::KMS::Alias
    Properties: {AliasName: alias/c, TargetKeyId: !GetAtt K.KeyId}
`
	tpl, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	got := tpl.Keys
	want := []Key{
		{LogicalID: "K", Description: "d", KeySpec: "SYMMETRIC_DEFAULT", KeyUsage: "ENCRYPT_DECRYPT", Rotation: true,
			Aliases: []Alias{{"A", "alias/a"}, {"B", "alias/b"}, {"C", "alias/c"}}},
		{LogicalID: "Plain", KeySpec: "SYMMETRIC_DEFAULT", KeyUsage: "ENCRYPT_DECRYPT"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Keys = %+v, want %+v", got, want)
	}
}

// TestParseStream reads testdata/stream.yaml, the stream blocks template.yaml will have.
func TestParseStream(t *testing.T) {
	t.Parallel()
	tpl, err := ParseFile(filepath.Join("testdata", "stream.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := tpl.Table.StreamViewType; got != "NEW_AND_OLD_IMAGES" {
		t.Errorf("StreamViewType = %q", got)
	}
	fn, ok := tpl.Function("ChannelSyncFunction")
	if !ok || len(fn.DynamoDBEvents) != 1 {
		t.Fatalf("ChannelSyncFunction DynamoDB events = %+v", fn)
	}
	got := fn.DynamoDBEvents[0]
	if len(got.Filters) != 1 || !strings.Contains(got.Filters[0].Source, `{"suffix":"#LST"}`) {
		t.Errorf("filters = %+v", got.Filters)
	}
	got.Filters = nil
	want := DynamoDBEvent{
		Name: "Stream", Stream: "Table", StartingPosition: "TRIM_HORIZON", BatchSize: 100,
		MaxBatchingWindow: time.Second, Bisect: true, MaximumRetryAttempts: 5,
		ReportBatchItemFailures: true, OnFailure: "ChannelSyncFailureQueue", ParallelizationFactor: 1, Enabled: true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("event =\n%+v\nwant\n%+v", got, want)
	}
	worker, _ := tpl.Function("WorkerFunction")
	wantSQS := []SQSEvent{
		{Name: "Later", Queue: "Later", BatchSize: 5, MaxBatchingWindow: 2 * time.Second, ReportBatchItemFailures: true, Enabled: true},
		{Name: "Ordered", Queue: "Ordered", BatchSize: 10, ReportBatchItemFailures: true, Enabled: true},
	}
	if !reflect.DeepEqual(worker.SQSEvents, wantSQS) {
		t.Errorf("worker SQS events = %+v", worker.SQSEvents)
	}
	if errs := tpl.CheckReferences(); len(errs) != 0 {
		t.Errorf("CheckReferences = %v", errs)
	}
}

// TestParseStreamDefaults: what a DynamoDB event gets when it sets only its stream and
// starting position.
func TestParseStreamDefaults(t *testing.T) {
	t.Parallel()
	tpl, err := Parse([]byte(streamDoc("{Stream: !GetAtt T.StreamArn, StartingPosition: LATEST, Enabled: false}")))
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := tpl.Function("F")
	want := []DynamoDBEvent{{Name: "S", Stream: "T", StartingPosition: "LATEST", BatchSize: 100, MaximumRetryAttempts: -1, ParallelizationFactor: 1}}
	if !reflect.DeepEqual(fn.DynamoDBEvents, want) {
		t.Errorf("events = %+v, want %+v", fn.DynamoDBEvents, want)
	}
}

// streamDoc is a template with a streamed table T, a standard queue Q, a FIFO queue FQ and a
// function F whose DynamoDB event S has the given properties.
func streamDoc(props string) string {
	return `Resources:
  T:
    Type: AWS::DynamoDB::Table
    Properties:
      KeySchema: [{AttributeName: PK, KeyType: HASH}]
      StreamSpecification: {StreamViewType: NEW_AND_OLD_IMAGES}
  Q:
    Type: AWS::SQS::Queue
  FQ:
    Type: AWS::SQS::Queue
    Properties: {FifoQueue: true}
  F:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: f/
      Events:
        S:
          Type: DynamoDB
          Properties: ` + props + "\n"
}

func TestParseStreamErrors(t *testing.T) {
	t.Parallel()
	const base = "Stream: !GetAtt T.StreamArn, StartingPosition: TRIM_HORIZON"
	tests := []struct {
		name string
		doc  string
		want string // part of the error
	}{
		{"stream not a GetAtt", streamDoc("{Stream: arn:aws:dynamodb:x, StartingPosition: LATEST}"), "property Stream must be !GetAtt"},
		{"stream of the Arn", streamDoc("{Stream: !GetAtt T.Arn, StartingPosition: LATEST}"), "property Stream must be !GetAtt"},
		{"stream of another resource", streamDoc("{Stream: !GetAtt Q.StreamArn, StartingPosition: LATEST}"), "Q is not the template's AWS::DynamoDB::Table"},
		{"table without a stream", strings.Replace(streamDoc("{"+base+"}"), "      StreamSpecification: {StreamViewType: NEW_AND_OLD_IMAGES}\n", "", 1), "has no StreamSpecification"},
		{"bad view type", strings.Replace(streamDoc("{"+base+"}"), "NEW_AND_OLD_IMAGES", "EVERYTHING", 1), "StreamViewType"},
		{"no starting position", streamDoc("{Stream: !GetAtt T.StreamArn}"), "StartingPosition must be"},
		{"AT_TIMESTAMP", streamDoc("{Stream: !GetAtt T.StreamArn, StartingPosition: AT_TIMESTAMP}"), "StartingPosition must be"},
		{"batch size 0", streamDoc("{" + base + ", BatchSize: 0}"), "BatchSize 0 is outside"},
		{"batch size too big", streamDoc("{" + base + ", BatchSize: 10001}"), "BatchSize 10001 is outside"},
		{"retries below -1", streamDoc("{" + base + ", MaximumRetryAttempts: -2}"), "MaximumRetryAttempts -2"},
		{"window too long", streamDoc("{" + base + ", MaximumBatchingWindowInSeconds: 301}"), "MaximumBatchingWindowInSeconds 301"},
		{"record age too short", streamDoc("{" + base + ", MaximumRecordAgeInSeconds: 10}"), "MaximumRecordAgeInSeconds 10"},
		{"parallelization", streamDoc("{" + base + ", ParallelizationFactor: 2}"), "plays only 1"},
		{"tumbling window", streamDoc("{" + base + ", TumblingWindowInSeconds: 30}"), "TumblingWindowInSeconds"},
		{"unknown response type", streamDoc("{" + base + ", FunctionResponseTypes: [Other]}"), `unknown "Other"`},
		{"SNS destination", streamDoc("{" + base + ", DestinationConfig: {OnFailure: {Type: SNS, Destination: !Ref Topic}}}"), "only SQS"},
		{"destination not a GetAtt", streamDoc("{" + base + ", DestinationConfig: {OnFailure: {Destination: arn:aws:sqs:x}}}"), "Destination must be !GetAtt"},
		{"destination not a queue", streamDoc("{" + base + ", DestinationConfig: {OnFailure: {Destination: !GetAtt F.Arn}}}"), "F is not an AWS::SQS::Queue"},
		{"FIFO destination", streamDoc("{" + base + ", DestinationConfig: {OnFailure: {Destination: !GetAtt FQ.Arn}}}"), "FIFO"},
		{"no OnFailure", streamDoc("{" + base + ", DestinationConfig: {OnSuccess: {}}}"), "must have OnFailure"},
		{"empty filters", streamDoc("{" + base + ", FilterCriteria: {Filters: []}}"), "must have Filters"},
		{"pattern not a string", streamDoc("{" + base + ", FilterCriteria: {Filters: [{Pattern: {a: [x]}}]}}"), "must be a JSON string"},
		{"unsupported operator", streamDoc("{" + base + `, FilterCriteria: {Filters: [{Pattern: '{"a":[{"wildcard":"x*"}]}'}]}}`), `Filters[0]: filter pattern: a: operator "wildcard" is not supported`},
		{"bad pattern JSON", streamDoc("{" + base + `, FilterCriteria: {Filters: [{Pattern: '{"a":'}]}}`), "not valid JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tc.doc))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestResolver(t *testing.T) {
	t.Parallel()
	tpl := parseSample(t)
	r := &Resolver{
		Template:  tpl,
		StackName: "stack",
		Region:    "us-east-1",
		AccountID: "000000000000",
		Refs:      map[string]string{"Table": "tbl", "Q": "http://q"},
		Attrs:     map[string]string{"Q.Arn": "arn:q"},
	}
	items, _ := tpl.Function("ItemsFunction")
	tests := []struct {
		in   any
		want string
	}{
		{items.Environment["TABLE_NAME"], "tbl"},
		{items.Environment["QUEUE"], "http://q"},
		{items.Environment["EXTRA"], "stack-tbl-arn:q-${Literal}"},
		{map[string]any{"Ref": "Rate"}, "7"},
		{map[string]any{"Fn::Join": []any{"/", []any{"a", map[string]any{"Ref": "AWS::Region"}}}}, "a/us-east-1"},
		{map[string]any{"Fn::Sub": []any{"${X}!", map[string]any{"X": "y"}}}, "y!"},
	}
	for _, tc := range tests {
		got, err := r.String(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("String(%v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := r.String(map[string]any{"Ref": "Nope"}); err == nil {
		t.Error("unknown Ref resolved")
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"not a mapping":          "- a",
		"no resources":           "Resources: {}",
		"bad getatt":             "Resources:\n  F:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy: {deadLetterTargetArn: !GetAtt NoDot, maxReceiveCount: 1}",
		"no codeuri":             "Resources:\n  F:\n    Type: AWS::Serverless::Function\n    Properties: {}",
		"bad path":               "Resources:\n  F:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: f/\n      Events: {A: {Type: Api, Properties: {Path: x, Method: get}}}",
		"bad redrive":            "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy: {deadLetterTargetArn: !GetAtt D.Arn, maxReceiveCount: 0}",
		"alias of no key":        "Resources:\n  A:\n    Type: AWS::KMS::Alias\n    Properties: {AliasName: alias/a, TargetKeyId: !Ref Nope}",
		"alias of a key's ARN":   "Resources:\n  K:\n    Type: AWS::KMS::Key\n  A:\n    Type: AWS::KMS::Alias\n    Properties: {AliasName: alias/a, TargetKeyId: !GetAtt K.Origin}",
		"alias not alias/":       "Resources:\n  K:\n    Type: AWS::KMS::Key\n  A:\n    Type: AWS::KMS::Alias\n    Properties: {AliasName: a, TargetKeyId: !Ref K}",
		"alias of AWS's":         "Resources:\n  K:\n    Type: AWS::KMS::Key\n  A:\n    Type: AWS::KMS::Alias\n    Properties: {AliasName: alias/aws/a, TargetKeyId: !Ref K}",
		"alias name not literal": "Resources:\n  K:\n    Type: AWS::KMS::Key\n  A:\n    Type: AWS::KMS::Alias\n    Properties: {AliasName: !Sub 'alias/${AWS::StackName}', TargetKeyId: !Ref K}",
	}
	for name, doc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := Parse([]byte(doc)); err == nil {
				t.Errorf("Parse(%q) succeeded", doc)
			}
		})
	}
}
