package conformance_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// jsonType is the Content-Type of every JSON response (docs/decisions.md, HTTP envelope).
const jsonType = "application/json; charset=utf-8"

// caller sends requests as one account and checks the envelope of every response:
// no 5xx, the JSON content type (or the plain-text rate-limit 403), a JSON body, the
// error shape of 4xx answers and the format of every time in the body.
type caller struct {
	t    testing.TB
	env  *testenv.Env
	acct testenv.Account
	c    *testenv.Client
}

func newCaller(t testing.TB, env *testenv.Env, acct testenv.Account) *caller {
	t.Helper()
	return &caller{t: t, env: env, acct: acct, c: env.Client(t, acct)}
}

// in returns the caller reporting to t (a subtest).
func (c *caller) in(t testing.TB) *caller {
	t.Helper()
	return newCaller(t, c.env, c.acct)
}

// withAuth returns a copy sending header as the Authorization header ("" sends none).
func (c *caller) withAuth(header string) *caller {
	cp := *c
	cp.c = c.c.WithAuth(header)
	return &cp
}

// do sends a request (path relative to /v1, already escaped) and checks its envelope.
func (c *caller) do(method, path string, body any) *testenv.Response {
	c.t.Helper()
	r := c.c.Do(method, path, body)
	checkEnvelope(c.t, method+" "+short(path), r)
	return r
}

// must sends a request, fails the test unless the status is want, and decodes the
// body into out when out is not nil.
func (c *caller) must(want int, method, path string, body, out any) *testenv.Response {
	c.t.Helper()
	r := c.do(method, path, body)
	if r.Status != want {
		c.t.Fatalf("%s %s: %d %s, want %d", method, short(path), r.Status, short(r.String()), want)
	}
	if out != nil {
		r.JSON(c.t, out)
	}
	return r
}

// checkEnvelope checks what every response of the API shares.
func checkEnvelope(t testing.TB, where string, r *testenv.Response) {
	t.Helper()
	if r.Status >= 500 {
		t.Errorf("%s -> %d %s: a 5xx for client input is a bug", where, r.Status, short(r.String()))
	}
	if r.Status < 300 {
		checkQuota(t, where, r)
	}
	ct := r.Header.Get("Content-Type")
	if r.Status == http.StatusForbidden && strings.HasPrefix(ct, "text/plain") {
		checkRateLimited(t, where, r)
		return
	}
	if ct != jsonType {
		t.Errorf("%s -> %d: Content-Type %q, want %q", where, r.Status, ct, jsonType)
	}
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Errorf("%s -> %d: body is not JSON (%v): %s", where, r.Status, err, short(r.String()))
		return
	}
	checkTimes(t, where, "$", v)
	if r.Status >= 400 {
		checkErrorBody(t, where, r.Status, v)
	}
}

// checkRateLimited checks a 403 of the rate limit: plain text and Retry-After.
func checkRateLimited(t testing.TB, where string, r *testenv.Response) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("%s -> 403: Content-Type %q, want text/plain; charset=utf-8", where, ct)
	}
	if r.String() != "Rate Limit Exceeded" {
		t.Errorf("%s -> 403: body %q, want Rate Limit Exceeded", where, short(r.String()))
	}
	if n, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
		t.Errorf("%s -> 403: Retry-After %q, want whole seconds 1..60", where, r.Header.Get("Retry-After"))
	}
	checkQuota(t, where, r)
}

// checkQuota checks the rate-limit headers of an authenticated answer.
func checkQuota(t testing.TB, where string, r *testenv.Response) {
	t.Helper()
	for _, h := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"} {
		if n, err := strconv.Atoi(r.Header.Get(h)); err != nil || n < 0 {
			t.Errorf("%s -> %d: %s %q, want a whole number", where, r.Status, h, r.Header.Get(h))
		}
	}
}

// checkErrorBody checks {"error":"message"}, or the per-field {"error":{"f":["msg"]}}.
func checkErrorBody(t testing.TB, where string, status int, v any) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok || len(obj) != 1 {
		t.Errorf("%s -> %d: error body %v, want one member \"error\"", where, status, v)
		return
	}
	switch e := obj["error"].(type) {
	case string:
		if strings.TrimSpace(e) == "" {
			t.Errorf("%s -> %d: empty error message", where, status)
		}
	case map[string]any:
		if status != http.StatusUnprocessableEntity || len(e) == 0 {
			t.Errorf("%s -> %d: per-field error %v (only a 422 may have one)", where, status, e)
		}
		for field, msgs := range e {
			list, ok := msgs.([]any)
			if !ok || len(list) == 0 {
				t.Errorf("%s -> %d: error of %q is %v, want a list of messages", where, status, field, msgs)
			}
		}
	default:
		t.Errorf("%s -> %d: error body %v, want {\"error\": message}", where, status, v)
	}
}

// wholeSecondUTC is the output form of every time: RFC 3339 UTC with Z, whole seconds.
var wholeSecondUTC = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`)

// checkTimes walks a JSON value and checks every non-null member whose key ends in
// _at or _date.
func checkTimes(t testing.TB, where, path string, v any) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			p := path + "." + k
			if (strings.HasSuffix(k, "_at") || strings.HasSuffix(k, "_date")) && val != nil {
				s, ok := val.(string)
				_, err := time.Parse(time.RFC3339, s)
				if !ok || !wholeSecondUTC.MatchString(s) || err != nil {
					t.Errorf("%s: %s = %#v is not RFC 3339 UTC with Z to the whole second", where, p, val)
				}
			}
			checkTimes(t, where, p, val)
		}
	case []any:
		for i, e := range x {
			checkTimes(t, where, fmt.Sprintf("%s[%d]", path, i), e)
		}
	}
}

// short truncates long paths and bodies (300-character SKUs, 1 MiB bodies) in messages.
func short(s string) string {
	const max = 300
	if len(s) > max {
		return s[:max] + fmt.Sprintf("...(%d bytes)", len(s))
	}
	return s
}

var uniqSeq atomic.Int64

// uniq returns a name no other call of this test binary returns.
func uniq(prefix string) string { return fmt.Sprintf("%s-%d", prefix, uniqSeq.Add(1)) }

// errorMessage returns the "error" member of a response's JSON body ("" if none).
func errorMessage(r *testenv.Response) string {
	var e struct {
		Error any `json:"error"`
	}
	if json.Unmarshal(r.Body, &e) != nil {
		return ""
	}
	s, _ := e.Error.(string)
	return s
}

// isArray reports whether the body is a JSON array, and its length.
func isArray(r *testenv.Response) (int, bool) {
	var list []json.RawMessage
	if len(r.Body) == 0 || r.Body[0] != '[' || json.Unmarshal(r.Body, &list) != nil {
		return 0, false
	}
	return len(list), true
}
