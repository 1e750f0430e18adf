package connectors

import (
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

func TestParseFields(t *testing.T) {
	t.Parallel()
	fields := []Field{{Name: "client_id", Max: 8}, {Name: "secret", Max: 16}}
	tests := []struct {
		name, raw string
		want      string // the error's message, "" for none
	}{
		{"ok", `{"client_id":"abc","secret":"s3cr3t"}`, ""},
		{"missing", `{"client_id":"abc"}`, "credentials.secret is required"},
		{"null", `{"client_id":"abc","secret":null}`, "credentials.secret is required"},
		{"blank", `{"client_id":"  ","secret":"x"}`, "credentials.client_id is required"},
		{"extra", `{"client_id":"abc","secret":"x","zone":"eu"}`, "credentials.zone is not a field of this channel type"},
		{"oversize", `{"client_id":"abcdefghi","secret":"x"}`, "credentials.client_id must be at most 8 characters"},
		{"not a string", `{"client_id":7,"secret":"x"}`, "credentials.client_id must be a string"},
		{"control", `{"client_id":"a\nb","secret":"x"}`, "credentials.client_id must not contain control characters"},
		{"not an object", `["x"]`, "credentials must be a JSON object"},
		{"trailing", `{"client_id":"a","secret":"x"} {}`, "credentials must be a JSON object"},
		{"null object", `null`, "credentials must be a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseFields([]byte(tt.raw), fields...)
			if tt.want == "" {
				if err != nil || got["client_id"] != "abc" || got["secret"] != "s3cr3t" {
					t.Fatalf("ParseFields = %v, %v", got, err)
				}
				return
			}
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.KindInvalid || e.Message != tt.want {
				t.Errorf("error %v, want invalid %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "abcdefghi") {
				t.Errorf("the error %q quotes a secret", err)
			}
		})
	}
}

func TestEndpointsCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		local bool
		ep    Endpoints
		want  string
	}{
		{"https in AWS", false, Endpoints{API: "https://api.example.com", Auth: "https://auth.example.com/token"}, ""},
		{"none", false, Endpoints{}, ""},
		{"http in AWS", false, Endpoints{API: "http://api.example.com"}, "endpoints.api must be an https URL"},
		{"loopback in AWS", false, Endpoints{Auth: "https://127.0.0.1/token"}, "endpoints.auth must not point to a private, loopback, link-local or metadata address"},
		{"http loopback locally", true, Endpoints{API: "http://127.0.0.1:8080", Auth: "http://localhost:9/t"}, ""},
		{"http elsewhere locally", true, Endpoints{API: "http://api.example.com"}, "endpoints.api must be an https URL unless its host is loopback (localhost, 127.0.0.1 or ::1)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.ep.Check(webhookhttp.Policy{Local: tt.local})
			got := ""
			if e, ok := errs.As(err); ok && e.Kind == errs.KindInvalid {
				got = e.Message
			} else if err != nil {
				got = "not invalid: " + err.Error()
			}
			if got != tt.want {
				t.Errorf("Check = %q, want %q", got, tt.want)
			}
		})
	}
}
