package ratelimit_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/testenv"
)

// frozenClock is a clock that moves only when told.
type frozenClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *frozenClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *frozenClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestUsagePlanThrottlesPerAccount: with the template's usage plans played
// (the authorizer names the account's key, its plan allows its rps with a
// burst of its rps), the gateway answers an account over its rate 403 Rate
// Limit Exceeded before its function runs, while another account goes on.
// The plan's clock is frozen, so the bucket refills only when the test says.
func TestUsagePlanThrottlesPerAccount(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	clock := &frozenClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	gw := env.NewGateway(t, gateway.Options{UsagePlans: gateway.AccountPlans(env.Deps.Accounts()), Now: clock.Now}, nil)
	// The functions' own limit is far above, so any refusal here is the gateway's.
	busy := gw.Client(t, env.NewAccount(t, testenv.AccountOptions{RPS: 2, RPM: 1000}))
	quiet := gw.Client(t, env.NewAccount(t, testenv.AccountOptions{RPS: 2, RPM: 1000}))

	var got []int
	for range 3 {
		got = append(got, busy.Do(http.MethodGet, "/channels", nil).Status)
	}
	refused := busy.Do(http.MethodGet, "/warehouses", nil)
	if got[0] != 200 || got[1] != 200 || got[2] != 403 || refused.Status != 403 {
		t.Fatalf("statuses %v then %d, want 200 200 403 403 (burst 2)", got, refused.Status)
	}
	if refused.String() != "Rate Limit Exceeded" || refused.Header.Get("Retry-After") != "1" || !throttled(refused) {
		t.Errorf("refusal: %q Retry-After %q error type %q; want the THROTTLED gateway response",
			refused, refused.Header.Get("Retry-After"), refused.Header.Get("X-Amzn-Errortype"))
	}
	for i := range 2 {
		if r := quiet.Do(http.MethodGet, "/channels", nil); r.Status != http.StatusOK {
			t.Errorf("other account, request %d: %d %s", i+1, r.Status, r)
		}
	}
	// Half a second later one token is back (2 a second): the gateway lets one request
	// through (the function may still refuse it, its second being the same) and throttles
	// the next.
	clock.Advance(500 * time.Millisecond)
	if r := busy.Do(http.MethodGet, "/channels", nil); throttled(r) {
		t.Errorf("half a second later: throttled by the gateway")
	}
	if r := busy.Do(http.MethodGet, "/channels", nil); !throttled(r) {
		t.Errorf("the token spent: %d %s, want the gateway's 403", r.Status, r)
	}
}

// throttled reports whether the gateway refused r with its THROTTLED response.
func throttled(r *testenv.Response) bool {
	return r.Status == http.StatusForbidden && r.Header.Get("X-Amzn-Errortype") == "TooManyRequestsException"
}

// TestUsagePlanUnknownKey: a request whose authorizer names no account's key
// is refused by the gateway like a failed authentication.
func TestUsagePlanUnknownKey(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	gw := env.NewGateway(t, gateway.Options{UsagePlans: func(context.Context, string) (gateway.Throttle, bool, error) {
		return gateway.Throttle{}, false, nil
	}}, nil)
	r := gw.Client(t, env.NewAccount(t, testenv.AccountOptions{})).Do(http.MethodGet, "/channels", nil)
	if r.Status != http.StatusUnauthorized || r.String() != `{"error":"Could not authenticate you"}` {
		t.Errorf("got %d %s, want the INVALID_API_KEY response, 401", r.Status, r)
	}
}
