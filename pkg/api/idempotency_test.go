package api

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/multisell/multisell/pkg/errs"
)

func TestValidKey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		key  string
		want bool
	}{
		{"a", true}, {"order-42/retry#1", true}, {strings.Repeat("k", 255), true},
		{"", false}, {strings.Repeat("k", 256), false}, {"a b", false}, {"tab\t", false}, {"clé", false}, {"nul\x00", false},
	} {
		if got := validKey(c.key); got != c.want {
			t.Errorf("validKey(%q) = %v, want %v", c.key, got, c.want)
		}
	}
}

// TestFingerprint: a request's fingerprint changes with its method, path,
// query and body, and not with the order of its query parameters.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	base := events.APIGatewayProxyRequest{HTTPMethod: "POST", Path: "/v1/shipments", Body: `{"a":1}`,
		MultiValueQueryStringParameters: map[string][]string{"x": {"1"}, "y": {"2"}}}
	same := base
	same.MultiValueQueryStringParameters = map[string][]string{"y": {"2"}, "x": {"1"}}
	if fingerprint(base) != fingerprint(same) {
		t.Error("the order of query parameters changed the fingerprint")
	}
	for name, change := range map[string]func(*events.APIGatewayProxyRequest){
		"method": func(r *events.APIGatewayProxyRequest) { r.HTTPMethod = "PUT" },
		"path":   func(r *events.APIGatewayProxyRequest) { r.Path = "/v1/inventory" },
		"query": func(r *events.APIGatewayProxyRequest) {
			r.MultiValueQueryStringParameters = map[string][]string{"x": {"1"}}
		},
		"body":  func(r *events.APIGatewayProxyRequest) { r.Body = `{"a":2}` },
		"split": func(r *events.APIGatewayProxyRequest) { r.Path, r.Body = "/v1/shipments{", `"a":1}` },
	} {
		other := base
		change(&other)
		if fingerprint(other) == fingerprint(base) {
			t.Errorf("a different %s has the same fingerprint", name)
		}
	}
}

// fakeReplays is an in-memory Replays that records what Lambda asked of it.
type fakeReplays struct {
	prior    *Replay
	saved    []Replay
	released int
}

func (f *fakeReplays) Claim(context.Context, string, string, string, string) (*Replay, error) {
	return f.prior, nil
}

func (f *fakeReplays) Save(_ context.Context, _, _, _ string, r Replay) error {
	f.saved = append(f.saved, r)
	return nil
}

func (f *fakeReplays) Release(context.Context, string, string, string) error {
	f.released++
	return nil
}

// TestIdempotentFlow: what Lambda keeps of a write sent with a key: an
// answer below 500 is saved, a 5xx releases the key, a malformed key is
// 422 without a claim, a GET or a request without the header never
// touches the replays.
func TestIdempotentFlow(t *testing.T) {
	t.Parallel()
	ok := func(context.Context, *Request) (*Response, error) { return OK(map[string]string{"a": "b"}), nil }
	fail := func(context.Context, *Request) (*Response, error) { return nil, errors.New("boom") }
	invalid := func(context.Context, *Request) (*Response, error) { return nil, errs.Invalid("bad") }
	cases := []struct {
		name                string
		method              string
		headers             map[string]string
		h                   Handler
		wantStatus          int
		wantSaved, released int
	}{
		{"2xx saved", "POST", map[string]string{"Idempotency-Key": "k"}, ok, 200, 1, 0},
		{"4xx saved", "PUT", map[string]string{"idempotency-key": "k"}, invalid, 422, 1, 0},
		{"5xx released", "POST", map[string]string{"Idempotency-Key": "k"}, fail, 500, 0, 1},
		{"malformed key", "POST", map[string]string{"Idempotency-Key": ""}, ok, 422, 0, 0},
		{"GET ignores it", "GET", map[string]string{"Idempotency-Key": "k"}, ok, 200, 0, 0},
		{"no key", "POST", nil, ok, 200, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeReplays{}
			ev := events.APIGatewayProxyRequest{HTTPMethod: c.method, Headers: c.headers}
			ev.RequestContext.Authorizer = map[string]any{"account_id": "acct_1"}
			resp, err := Lambda(c.h, nil, f)(context.Background(), ev)
			if err != nil || resp.StatusCode != c.wantStatus {
				t.Fatalf("got %d %v, want %d", resp.StatusCode, err, c.wantStatus)
			}
			if len(f.saved) != c.wantSaved || f.released != c.released {
				t.Errorf("saved %d, released %d; want %d, %d", len(f.saved), f.released, c.wantSaved, c.released)
			}
		})
	}
	t.Run("a replay", func(t *testing.T) {
		t.Parallel()
		f := &fakeReplays{prior: &Replay{Fingerprint: fingerprint(events.APIGatewayProxyRequest{HTTPMethod: "POST"}),
			Status: 201, Headers: map[string]string{"Content-Type": ContentType}, Body: `{"x":1}`}}
		ev := events.APIGatewayProxyRequest{HTTPMethod: "POST", Headers: map[string]string{"Idempotency-Key": "k"}}
		ev.RequestContext.Authorizer = map[string]any{"account_id": "acct_1"}
		resp, _ := Lambda(ok, nil, f)(context.Background(), ev)
		if resp.StatusCode != 201 || resp.Body != `{"x":1}` || resp.Headers[HeaderReplayed] != "true" || len(f.saved) != 0 {
			t.Errorf("replay: %d %s %v, saved %d", resp.StatusCode, resp.Body, resp.Headers, len(f.saved))
		}
	})
}
