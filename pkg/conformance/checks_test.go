package conformance_test

import (
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

// recorder is a testing.TB that counts the errors checkEnvelope reports instead of
// failing (checkEnvelope calls only Helper and Errorf).
type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }

// TestEnvelopeChecks: the checks every response goes through catch what they are for.
func TestEnvelopeChecks(t *testing.T) {
	t.Parallel()
	resp := func(status int, ct, body string, h ...string) *testenv.Response {
		hd := http.Header{"X-Ratelimit-Limit": {"2"}, "X-Ratelimit-Remaining": {"1"}, "X-Ratelimit-Reset": {"1"}}
		if ct != "" {
			hd.Set("Content-Type", ct)
		}
		for i := 0; i+1 < len(h); i += 2 {
			hd.Set(h[i], h[i+1])
		}
		return &testenv.Response{Status: status, Header: hd, Body: []byte(body)}
	}
	for _, tc := range []struct {
		name string
		r    *testenv.Response
		bad  bool
	}{
		{"good object", resp(200, jsonType, `{"a":1,"created_at":"2024-03-01T08:15:30Z","x":[{"ship_by_date":null}]}`), false},
		{"good error", resp(404, jsonType, `{"error":"Order not found"}`), false},
		{"good field errors", resp(422, jsonType, `{"error":{"name":["can't be blank"]}}`), false},
		{"good rate limit", resp(403, "text/plain; charset=utf-8", "Rate Limit Exceeded", "Retry-After", "1"), false},
		{"no charset", resp(200, "application/json", `[]`), true},
		{"not JSON", resp(200, jsonType, `nope`), true},
		{"5xx", resp(502, jsonType, `{"error":"Internal server error"}`), true},
		{"fractional seconds", resp(200, jsonType, `[{"modified_at":"2024-03-01T08:15:30.5Z"}]`), true},
		{"offset", resp(200, jsonType, `{"o":{"ordered_at":"2024-03-01T08:15:30+00:00"}}`), true},
		{"date alone", resp(200, jsonType, `{"deliver_by_date":"2024-03-01"}`), true},
		{"number time", resp(200, jsonType, `{"updated_at":1709280930}`), true},
		{"bad month", resp(200, jsonType, `{"paid_at":"2024-13-01T08:15:30Z"}`), true},
		{"error without message", resp(400, jsonType, `{"message":"bad"}`), true},
		{"empty error", resp(400, jsonType, `{"error":""}`), true},
		{"field errors on 404", resp(404, jsonType, `{"error":{"uuid":["unknown"]}}`), true},
		{"rate limit without Retry-After", resp(403, "text/plain; charset=utf-8", "Rate Limit Exceeded"), true},
		{"rate limit as JSON", resp(403, jsonType, `"Rate Limit Exceeded"`), true},
		{"no rate-limit headers", &testenv.Response{Status: 200, Header: http.Header{"Content-Type": {jsonType}}, Body: []byte(`[]`)}, true},
		{"rate limit without its headers", &testenv.Response{Status: 403, Body: []byte("Rate Limit Exceeded"),
			Header: http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Retry-After": {"1"}}}, true},
	} {
		rec := &recorder{TB: t}
		checkEnvelope(rec, tc.name, tc.r)
		if got := rec.errors > 0; got != tc.bad {
			t.Errorf("%s: reported %d errors, want bad=%v", tc.name, rec.errors, tc.bad)
		}
	}
}
