package auth_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	lambdaevents "github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/testenv"
)

const unauthorized = `{"error":"Could not authenticate you"}`

// cachingGateway is the stack behind a gateway that caches the authorizer's
// answers as API Gateway does (the template's five minutes), with the
// authorizer's invocations counted.
func cachingGateway(t *testing.T, env *testenv.Env) (*testenv.Gateway, *atomic.Int32) {
	t.Helper()
	lookup, calls := countingAuthorizer(env)
	return env.NewGateway(t, gateway.Options{AuthCacheTTL: 5 * time.Minute}, lookup), calls
}

// countingAuthorizer is the stack's handlers, with the authorizer's
// invocations counted.
func countingAuthorizer(env *testenv.Env) (gateway.Lookup, *atomic.Int32) {
	var calls atomic.Int32
	return func(name string) (any, error) {
		h, err := env.Handler(name)
		if name != "authorizer" || err != nil {
			return h, err
		}
		authorize := h.(app.AuthorizerHandler)
		return app.AuthorizerHandler(func(ctx context.Context, req lambdaevents.APIGatewayCustomAuthorizerRequestTypeRequest) (lambdaevents.APIGatewayCustomAuthorizerResponse, error) {
			calls.Add(1)
			return authorize(ctx, req)
		}), nil
	}, &calls
}

func accountsService(env *testenv.Env) accounts.Service {
	return env.Deps.Accounts()
}

// TestRotatedSecretStopsAtOnce: after a rotation, the old secret is refused
// on its very next request although the gateway still holds the
// authorizer's Allow for it (the authorizer is not called again), and the
// new secret works.
func TestRotatedSecretStopsAtOnce(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	gw, calls := cachingGateway(t, env)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	old := gw.Client(t, acct)
	for range 2 {
		if r := old.Do(http.MethodGet, "/warehouses", nil); r.Status != http.StatusOK {
			t.Fatalf("before the rotation: %d %s", r.Status, r)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("authorizer called %d times for two requests, want 1 (cached)", n)
	}

	rotated, err := accountsService(env).RotateSecret(context.Background(), acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rotated.SecretKey == "" || rotated.SecretKey == acct.Secret || rotated.AccountToken != acct.Token {
		t.Fatalf("rotation returned %+v", rotated)
	}
	for _, path := range []string{"/warehouses", "/orders"} {
		r := old.Do(http.MethodGet, path, nil)
		if r.Status != http.StatusUnauthorized || r.String() != unauthorized || r.Header.Get("WWW-Authenticate") != `Basic realm="multisell"` {
			t.Errorf("old secret after the rotation, %s: %d %s, want 401", path, r.Status, r)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("authorizer called %d times, want 1: the old secret's Allow was still cached", n)
	}
	fresh := acct
	fresh.Secret = rotated.SecretKey
	if r := gw.Client(t, fresh).Do(http.MethodGet, "/warehouses", nil); r.Status != http.StatusOK {
		t.Errorf("new secret: %d %s", r.Status, r)
	}
	if r := env.Client(t, acct).Do(http.MethodGet, "/warehouses", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("old secret, authorizer asked again: %d %s", r.Status, r)
	}
}

// TestDisabledAccountRefusedEverywhere: once disabled, an account whose
// Allow the gateway still caches gets 401 on every route of the template at
// once, and a fresh authorization is refused too. Another account goes on.
func TestDisabledAccountRefusedEverywhere(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	gw, _ := cachingGateway(t, env)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	other := env.NewAccount(t, testenv.AccountOptions{})
	c := gw.Client(t, acct)
	if r := c.Do(http.MethodGet, "/channels", nil); r.Status != http.StatusOK {
		t.Fatalf("before disabling: %d %s", r.Status, r)
	}
	if err := accountsService(env).Disable(context.Background(), acct.ID); err != nil {
		t.Fatal(err)
	}
	for _, f := range env.Template.Functions {
		for _, ev := range f.APIEvents {
			if ev.Authorizer == "NONE" {
				continue // a public route (the consent callbacks): its state is its authorization
			}
			path := strings.NewReplacer("{uuid}", "x", "{sku}", "x", "{request_id}", "x", "{sb_order_seq}", "1",
				"{id}", "x", "{delivery_id}", "x").Replace(ev.Path)
			t.Run(ev.Method+" "+ev.Path, func(t *testing.T) {
				r := c.Do(ev.Method, path, nil)
				if r.Status != http.StatusUnauthorized || r.String() != unauthorized {
					t.Errorf("%s %s: %d %s, want 401", ev.Method, path, r.Status, r)
				}
			})
		}
	}
	if r := env.Client(t, acct).Do(http.MethodGet, "/channels", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("disabled account, authorizer asked again: %d %s", r.Status, r)
	}
	if r := gw.Client(t, other).Do(http.MethodGet, "/channels", nil); r.Status != http.StatusOK {
		t.Errorf("another account: %d %s", r.Status, r)
	}
}

// TestRevokedSecretSpendsNothing: rotating or disabling flushes the gateway's authorizer
// cache (accounts.Service.Authorizers), so the old secret's requests go to the authorizer
// again and are 401 from the next one on, before the account's usage plan: a burst of
// them spends none of the plan's tokens, and the new secret is served. The plan's clock
// is frozen, so its bucket (burst 2) never refills during the test.
func TestRevokedSecretSpendsNothing(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	frozen := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		change func(accounts.Service, string) (string, error) // returns the new secret, if any
	}{
		{"rotated", func(s accounts.Service, id string) (string, error) {
			c, err := s.RotateSecret(context.Background(), id)
			return c.SecretKey, err
		}},
		{"disabled", func(s accounts.Service, id string) (string, error) {
			return "", s.Disable(context.Background(), id)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lookup, calls := countingAuthorizer(env)
			gw := env.NewGateway(t, gateway.Options{AuthCacheTTL: 5 * time.Minute,
				UsagePlans: gateway.AccountPlans(env.Deps.Accounts()), Now: func() time.Time { return frozen }}, lookup)
			acct := env.NewAccount(t, testenv.AccountOptions{RPS: 2, RPM: 1000})
			old := gw.Client(t, acct)
			if r := old.Do(http.MethodGet, "/warehouses", nil); r.Status != http.StatusOK {
				t.Fatalf("before: %d %s", r.Status, r)
			}
			svc := accountsService(env)
			svc.Authorizers = gw.Gateway
			secret, err := tc.change(svc, acct.ID)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for range 5 {
				got = append(got, old.Do(http.MethodGet, "/warehouses", nil).Status)
			}
			if want := []int{401, 401, 401, 401, 401}; !slices.Equal(got, want) {
				t.Errorf("the old secret's burst: %v, want %v", got, want)
			}
			if got, want := calls.Load(), int32(6); got != want {
				t.Errorf("authorizer called %d times, want %d (the cache flushed, every refusal is its own)", got, want)
			}
			if secret == "" {
				return
			}
			fresh := acct
			fresh.Secret = secret
			if r := gw.Client(t, fresh).Do(http.MethodGet, "/warehouses", nil); r.Status != http.StatusOK {
				t.Errorf("the new secret after the old one's burst: %d %s, want 200 (the plan's last token)", r.Status, r)
			}
		})
	}
}
