package testenv

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// Placeholders of the sample events (see events/README.md).
const (
	eventsAccount = "acct-events"
	eventsAuth    = "Basic ZXZlbnRzLXRva2VuOmV2ZW50cy1zZWNyZXQ="
)

// TestSampleEvents runs every function's handler on its events/<folder>.json against the
// local stack, with the placeholders replaced by a real account.
func TestSampleEvents(t *testing.T) {
	env := Get(t)
	acct := env.NewAccount(t, AccountOptions{Name: "sample events"})
	replacer := strings.NewReplacer(eventsAccount, acct.ID, eventsAuth, BasicAuth(acct))
	for _, fn := range env.Template.Functions {
		t.Run(fn.Folder, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(env.Root, "events", fn.Folder+".json"))
			if err != nil {
				t.Fatalf("every function needs a sample event: %v", err)
			}
			data := []byte(replacer.Replace(string(raw)))
			h, err := env.Handler(fn.Folder)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			switch h := h.(type) {
			case func(context.Context, events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error):
				var ev events.APIGatewayProxyRequest
				decodeEvent(t, data, &ev)
				resp, err := h(ctx, ev)
				if err != nil || resp.StatusCode >= 500 || resp.StatusCode < 200 {
					t.Fatalf("handler = %d %s, %v", resp.StatusCode, resp.Body, err)
				}
			case func(context.Context, events.APIGatewayCustomAuthorizerRequestTypeRequest) (events.APIGatewayCustomAuthorizerResponse, error):
				var ev events.APIGatewayCustomAuthorizerRequestTypeRequest
				decodeEvent(t, data, &ev)
				resp, err := h(ctx, ev)
				if err != nil {
					t.Fatal(err)
				}
				if resp.Context["account_id"] != acct.ID || len(resp.PolicyDocument.Statement) == 0 || resp.PolicyDocument.Statement[0].Effect != "Allow" {
					t.Errorf("authorizer response = %+v", resp)
				}
			case func(context.Context, events.SQSEvent) (events.SQSEventResponse, error):
				var ev events.SQSEvent
				decodeEvent(t, data, &ev)
				resp, err := h(ctx, ev)
				if err != nil || len(resp.BatchItemFailures) > 0 {
					t.Fatalf("handler = %+v, %v", resp, err)
				}
			case func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error):
				var ev events.DynamoDBEvent
				decodeEvent(t, data, &ev)
				resp, err := h(ctx, ev)
				if err != nil || len(resp.BatchItemFailures) > 0 {
					t.Fatalf("handler = %+v, %v", resp, err)
				}
			case func(context.Context, events.EventBridgeEvent) error:
				var ev events.EventBridgeEvent
				decodeEvent(t, data, &ev)
				if err := h(ctx, ev); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("unknown handler type %T", h)
			}
		})
	}
}

func decodeEvent(t *testing.T, data []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("sample event does not decode into %T: %v", v, err)
	}
}
