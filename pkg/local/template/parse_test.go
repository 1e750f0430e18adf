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
		"not a mapping": "- a",
		"no resources":  "Resources: {}",
		"bad getatt":    "Resources:\n  F:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy: {deadLetterTargetArn: !GetAtt NoDot, maxReceiveCount: 1}",
		"no codeuri":    "Resources:\n  F:\n    Type: AWS::Serverless::Function\n    Properties: {}",
		"bad path":      "Resources:\n  F:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: f/\n      Events: {A: {Type: Api, Properties: {Path: x, Method: get}}}",
		"bad redrive":   "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy: {deadLetterTargetArn: !GetAtt D.Arn, maxReceiveCount: 0}",
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
