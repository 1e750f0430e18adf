package gateway

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/local/template"
	"github.com/multisell/multisell/pkg/usageplans"
)

// Credentials the fake authorizer knows.
var (
	goodAuth   = "Basic " + base64.StdEncoding.EncodeToString([]byte("token:secret"))
	denyAuth   = "Basic " + base64.StdEncoding.EncodeToString([]byte("deny:me"))
	brokenAuth = "Basic " + base64.StdEncoding.EncodeToString([]byte("broken:authorizer"))
)

// fakeAuthorizer allows goodAuth with a context, returns a Deny policy for denyAuth,
// fails for brokenAuth and answers "Unauthorized" otherwise. It counts its calls.
func fakeAuthorizer(calls *atomic.Int64) AuthorizerHandler {
	return func(_ context.Context, req events.APIGatewayCustomAuthorizerRequestTypeRequest) (events.APIGatewayCustomAuthorizerResponse, error) {
		calls.Add(1)
		effect := "Allow"
		switch req.Headers["Authorization"] {
		case goodAuth:
		case denyAuth:
			effect = "Deny"
		case brokenAuth:
			return events.APIGatewayCustomAuthorizerResponse{}, errors.New("table unavailable")
		default:
			return events.APIGatewayCustomAuthorizerResponse{}, errors.New("Unauthorized")
		}
		if req.Type != "REQUEST" || !strings.HasPrefix(req.MethodArn, "arn:aws:execute-api:") || req.RequestContext.RequestID == "" {
			return events.APIGatewayCustomAuthorizerResponse{}, errors.New("malformed authorizer event")
		}
		return events.APIGatewayCustomAuthorizerResponse{
			PrincipalID: "acct-1",
			PolicyDocument: events.APIGatewayCustomAuthorizerPolicy{
				Version: "2012-10-17",
				Statement: []events.IAMPolicyStatement{{
					Action: []string{"execute-api:Invoke"}, Effect: effect,
					Resource: []string{"arn:aws:execute-api:*:*:*/v1/*"},
				}},
			},
			Context: map[string]any{"account_id": "acct-1", "rps": 5, "rpm": 40, "flag": true},
		}, nil
	}
}

func echo(name string) HTTPHandler {
	return func(_ context.Context, req events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
		b, err := json.Marshal(req)
		if err != nil {
			return events.APIGatewayProxyResponse{}, err
		}
		return events.APIGatewayProxyResponse{
			StatusCode:        200,
			Headers:           map[string]string{"X-Function": name, "Content-Type": "application/json; charset=utf-8"},
			MultiValueHeaders: map[string][]string{"X-Multi": {"a", "b"}},
			Body:              string(b),
		}, nil
	}
}

func broken(_ context.Context, req events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error) {
	switch req.PathParameters["how"] {
	case "panic":
		panic("boom")
	case "error":
		return events.APIGatewayProxyResponse{}, errors.New("boom")
	case "status0":
		return events.APIGatewayProxyResponse{Body: "x"}, nil
	case "slow":
		time.Sleep(1500 * time.Millisecond)
		return events.APIGatewayProxyResponse{StatusCode: 200}, nil
	case "base64":
		return events.APIGatewayProxyResponse{StatusCode: 201, Body: base64.StdEncoding.EncodeToString([]byte("raw\x00bytes")), IsBase64Encoded: true,
			Headers: map[string]string{"Content-Type": "application/octet-stream"}}, nil
	}
	return events.APIGatewayProxyResponse{StatusCode: 204}, nil
}

func newTestGateway(t *testing.T, ttl time.Duration) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	return newTestGatewayWith(t, Options{AuthCacheTTL: ttl})
}

// newTestGatewayWith serves testdata/gateway.yaml with the fake handlers, a 1 KiB request
// limit, no logs and the rest of opts.
func newTestGatewayWith(t *testing.T, opts Options) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	tpl, err := template.Parse(testdata(t, "gateway.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	calls := &atomic.Int64{}
	handlers := map[string]any{
		"auth":    fakeAuthorizer(calls),
		"echo":    echo("echo"),
		"special": echo("special"),
		"broken":  HTTPHandler(broken),
	}
	lookup := func(name string) (any, error) {
		h, ok := handlers[name]
		if !ok {
			return nil, errors.New("no handler " + name)
		}
		return h, nil
	}
	opts.MaxRequestBytes = 1024
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	gw, err := NewGateway(tpl, lookup, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	return srv, calls
}

type gwResponse struct {
	status int
	header http.Header
	body   string
	event  events.APIGatewayProxyRequest
}

func call(t *testing.T, srv *httptest.Server, method, path, auth, body string, header http.Header) gwResponse {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := gwResponse{status: resp.StatusCode, header: resp.Header, body: string(b)}
	if resp.Header.Get("X-Function") != "" {
		if err := json.Unmarshal(b, &out.event); err != nil {
			t.Fatalf("echo body: %v", err)
		}
	}
	return out
}

func TestGatewayRouting(t *testing.T) {
	t.Parallel()
	srv, _ := newTestGateway(t, 0)
	tests := []struct {
		name, method, path string
		status             int
		function, resource string
		params             map[string]string
	}{
		{"param", "GET", "/v1/items/abc", 200, "echo", "/items/{id}", map[string]string{"id": "abc"}},
		{"param stays encoded", "GET", "/v1/items/A%2FB%20C%2B%23%3F", 200, "echo", "/items/{id}", map[string]string{"id": "A%2FB%20C%2B%23%3F"}},
		{"literal beats param", "GET", "/v1/items/special", 200, "special", "/items/special", nil},
		{"trailing slash", "GET", "/v1/items/abc/", 200, "echo", "/items/{id}", map[string]string{"id": "abc"}},
		{"greedy", "DELETE", "/v1/files/a/b%20c/d", 200, "echo", "/files/{path+}", map[string]string{"path": "a/b%20c/d"}},
		{"greedy needs a segment", "GET", "/v1/files/", 404, "", "", nil},
		{"post", "POST", "/v1/items", 200, "echo", "/items", nil},
		{"wrong method", "PUT", "/v1/items", 404, "", "", nil},
		{"unknown route", "GET", "/v1/nope", 404, "", "", nil},
		{"too many segments", "GET", "/v1/items/a/b", 404, "", "", nil},
		{"no stage", "GET", "/items/abc", 404, "", "", nil},
		{"stage root", "GET", "/v1", 404, "", "", nil},
		{"other stage", "GET", "/v2/items/abc", 404, "", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := call(t, srv, tc.method, tc.path, goodAuth, "", nil)
			if r.status != tc.status {
				t.Fatalf("status = %d, want %d (body %s)", r.status, tc.status, r.body)
			}
			if tc.status == 404 {
				if r.body != `{"error":"Not found"}` {
					t.Errorf("404 body = %s", r.body)
				}
				return
			}
			if got := r.header.Get("X-Function"); got != tc.function {
				t.Errorf("function = %q, want %q", got, tc.function)
			}
			if r.event.Resource != tc.resource || r.event.RequestContext.ResourcePath != tc.resource {
				t.Errorf("resource = %q, want %q", r.event.Resource, tc.resource)
			}
			if len(r.event.PathParameters) != len(tc.params) {
				t.Errorf("path parameters = %v, want %v", r.event.PathParameters, tc.params)
			}
			for k, v := range tc.params {
				if r.event.PathParameters[k] != v {
					t.Errorf("path parameter %s = %q, want %q", k, r.event.PathParameters[k], v)
				}
			}
		})
	}
}

func TestGatewayProxyEvent(t *testing.T) {
	t.Parallel()
	srv, _ := newTestGateway(t, 0)
	header := http.Header{"X-Two": {"1", "2"}, "Content-Type": {"application/json"}}
	r := call(t, srv, "POST", "/v1/items?sku[]=a&sku[]=b%20c&page=2&page=3&plus=a+b", goodAuth, `{"a":1}`, header)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	ev := r.event
	if ev.HTTPMethod != "POST" || ev.Path != "/items" || ev.Body != `{"a":1}` || ev.IsBase64Encoded {
		t.Errorf("event = %+v", ev)
	}
	if got := ev.MultiValueQueryStringParameters["sku[]"]; len(got) != 2 || got[1] != "b c" {
		t.Errorf("multi query = %v", ev.MultiValueQueryStringParameters)
	}
	if ev.QueryStringParameters["page"] != "3" || ev.QueryStringParameters["plus"] != "a b" {
		t.Errorf("query = %v", ev.QueryStringParameters)
	}
	if ev.Headers["X-Two"] != "2" || len(ev.MultiValueHeaders["X-Two"]) != 2 || ev.Headers["Host"] == "" || ev.Headers["Authorization"] != goodAuth {
		t.Errorf("headers = %v / %v", ev.Headers, ev.MultiValueHeaders)
	}
	rc := ev.RequestContext
	if rc.RequestID == "" || rc.Stage != "v1" || rc.HTTPMethod != "POST" || rc.Path != "/v1/items" || rc.Identity.SourceIP == "" {
		t.Errorf("request context = %+v", rc)
	}
	if r.header.Get("X-Amzn-Requestid") != rc.RequestID {
		t.Errorf("X-Amzn-RequestId %q != requestId %q", r.header.Get("X-Amzn-Requestid"), rc.RequestID)
	}
	// API Gateway stringifies the authorizer context and adds principalId.
	want := map[string]any{"account_id": "acct-1", "rps": "5", "rpm": "40", "flag": "true", "principalId": "acct-1"}
	for k, v := range want {
		if rc.Authorizer[k] != v {
			t.Errorf("authorizer[%s] = %#v, want %#v", k, rc.Authorizer[k], v)
		}
	}
	if got := r.header.Values("X-Multi"); len(got) != 2 {
		t.Errorf("multi-value response header = %v", got)
	}
	if r.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("content type = %q", r.header.Get("Content-Type"))
	}

	nq := call(t, srv, "GET", "/v1/items/x", goodAuth, "", nil)
	if nq.event.QueryStringParameters != nil || nq.event.MultiValueQueryStringParameters != nil {
		t.Errorf("no query should give nil maps, got %v", nq.event.QueryStringParameters)
	}
}

func TestGatewayAuthorizer(t *testing.T) {
	t.Parallel()
	srv, _ := newTestGateway(t, 0)
	const unauthorized = `{"error":"Could not authenticate you"}`
	tests := []struct {
		name, path, auth string
		status           int
		body             string
	}{
		{"allowed", "/v1/items/1", goodAuth, 200, ""},
		{"missing header", "/v1/items/1", "", 401, unauthorized},
		{"bad credentials", "/v1/items/1", "Basic Zm9vOmJhcg==", 401, unauthorized},
		{"deny policy", "/v1/items/1", denyAuth, 401, unauthorized},
		{"authorizer failure", "/v1/items/1", brokenAuth, 500, `{"error":"Internal server error"}`},
		{"public route", "/v1/public", "", 200, ""},
		{"unknown route before auth", "/v1/nope", "", 404, `{"error":"Not found"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := call(t, srv, "GET", tc.path, tc.auth, "", nil)
			if r.status != tc.status {
				t.Fatalf("status = %d, want %d (%s)", r.status, tc.status, r.body)
			}
			if tc.body != "" && r.body != tc.body {
				t.Errorf("body = %s, want %s", r.body, tc.body)
			}
			if tc.status == 401 {
				if got := r.header.Get("WWW-Authenticate"); got != `Basic realm="multisell"` {
					t.Errorf("WWW-Authenticate = %q", got)
				}
				if got := r.header.Get("Content-Type"); got != "application/json; charset=utf-8" {
					t.Errorf("Content-Type = %q", got)
				}
			}
			if tc.name == "public route" && len(r.event.RequestContext.Authorizer) != 0 {
				t.Errorf("public route got an authorizer context %v", r.event.RequestContext.Authorizer)
			}
		})
	}
}

func TestGatewayAuthorizerCache(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ttl   time.Duration
		calls int64
	}{{0, 3}, {time.Minute, 1}} {
		srv, calls := newTestGateway(t, tc.ttl)
		for _, path := range []string{"/v1/items/1", "/v1/items/2", "/v1/items"} {
			method := "GET"
			if path == "/v1/items" {
				method = "POST"
			}
			if r := call(t, srv, method, path, goodAuth, "", nil); r.status != 200 {
				t.Fatalf("status %d", r.status)
			}
		}
		if got := calls.Load(); got != tc.calls {
			t.Errorf("ttl %v: authorizer called %d times, want %d", tc.ttl, got, tc.calls)
		}
		// Refusals are not cached.
		before := calls.Load()
		call(t, srv, "GET", "/v1/items/1", "Basic eDp5", "", nil)
		call(t, srv, "GET", "/v1/items/1", "Basic eDp5", "", nil)
		if calls.Load()-before != 2 {
			t.Errorf("ttl %v: refusals were cached", tc.ttl)
		}
	}
}

// TestGatewayFlushAuthorizers: API Gateway's FlushStageAuthorizersCache, sent with the
// SDK to the gateway (what `multisell accounts rotate-secret` does locally), empties the
// authorizer cache: the next request is authorized again. Another API's or stage's flush
// is not the gateway's (404).
func TestGatewayFlushAuthorizers(t *testing.T) {
	t.Parallel()
	srv, calls := newTestGateway(t, time.Minute)
	for range 2 {
		call(t, srv, "GET", "/v1/items/1", goodAuth, "", nil)
	}
	if err := usageplans.NewLocal(srv.URL, "other", "v1").FlushAuthorizers(context.Background()); err == nil {
		t.Error("another API's flush succeeded")
	}
	if err := usageplans.NewLocal(srv.URL, "local", "v1").FlushAuthorizers(context.Background()); err != nil {
		t.Fatal(err)
	}
	call(t, srv, "GET", "/v1/items/1", goodAuth, "", nil)
	if got, want := calls.Load(), int64(2); got != want {
		t.Errorf("authorizer called %d times, want %d (once before the flush, once after)", got, want)
	}
}

func TestGatewayFailures(t *testing.T) {
	t.Parallel()
	srv, _ := newTestGateway(t, 0)
	const internal = `{"error":"Internal server error"}`
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"panic", "GET", "/v1/broken/panic", "", 502, internal},
		{"error", "GET", "/v1/broken/error", "", 502, internal},
		{"no status code", "GET", "/v1/broken/status0", "", 502, internal},
		{"timeout", "GET", "/v1/broken/slow", "", 502, internal},
		{"base64 body", "GET", "/v1/broken/base64", "", 201, "raw\x00bytes"},
		{"too large", "POST", "/v1/items", strings.Repeat("x", 1025), 413, `{"error":"Request Too Long"}`},
		{"at the limit", "POST", "/v1/items", strings.Repeat("x", 1024), 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := call(t, srv, tc.method, tc.path, goodAuth, tc.body, nil)
			if r.status != tc.status {
				t.Fatalf("status = %d, want %d (%s)", r.status, tc.status, r.body)
			}
			if tc.want != "" && r.body != tc.want {
				t.Errorf("body = %q, want %q", r.body, tc.want)
			}
		})
	}
}

func TestNewGatewayErrors(t *testing.T) {
	t.Parallel()
	tpl, err := template.Parse(testdata(t, "gateway.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]any{"auth": fakeAuthorizer(&atomic.Int64{}), "echo": echo("echo"), "special": echo("special"), "broken": HTTPHandler(broken)}
	tests := map[string]func(name string) (any, error){
		"missing handler": func(name string) (any, error) {
			if name == "special" {
				return nil, errors.New("nope")
			}
			return ok[name], nil
		},
		"wrong type": func(name string) (any, error) {
			if name == "echo" {
				return "not a handler", nil
			}
			return ok[name], nil
		},
		"authorizer of wrong type": func(name string) (any, error) {
			if name == "auth" {
				return echo("x"), nil
			}
			return ok[name], nil
		},
	}
	for name, lookup := range tests {
		if _, err := NewGateway(tpl, lookup, Options{}); err == nil {
			t.Errorf("%s: NewGateway succeeded", name)
		}
	}
}

func TestWildcard(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p, s string
		want bool
	}{
		{"*", "anything", true},
		{"arn:aws:execute-api:*:*:*/v1/*", "arn:aws:execute-api:us-east-1:0:local/v1/GET/items", true},
		{"arn:aws:execute-api:*:*:*/v2/*", "arn:aws:execute-api:us-east-1:0:local/v1/GET/items", false},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"a*b*c", "aXXbYYc", true},
		{"a*b*c", "aXXbYY", false},
		{"", "", true},
	}
	for _, tc := range tests {
		if got := wildcard(tc.p, tc.s); got != tc.want {
			t.Errorf("wildcard(%q, %q) = %v", tc.p, tc.s, got)
		}
	}
}

// testdata returns the contents of testdata/<name>, a template that two or
// more tests share.
func testdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
