package shopify_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// appFixture is a fixture whose channel is connected with a Dev Dashboard app's client id
// and secret (the client-credentials grant at the sandbox's token endpoint), with a
// runtime whose clock is skew behind the sandbox's (the test moves it on).
func appFixture(t *testing.T) (*fixture, *atomic.Int64) {
	t.Helper()
	f := newFixture(t)
	f.sb.SetApp(f.token, "app-"+f.Ch.UUID, "shpss_secret")
	creds, _ := json.Marshal(map[string]string{"shop_domain": "sandbox.myshopify.com", "client_id": "app-" + f.Ch.UUID,
		"client_secret": "shpss_secret", "location_id": f.location})
	f.Ch.Credentials = creds
	f.Ch.Endpoints.Auth = f.sb.URL + sbx.TokenPath
	f.rt.Channels = connectorstest.Channels{Ch: f.Ch}
	skew := &atomic.Int64{}
	f.rt.Now = func() time.Time { return time.Now().Add(-time.Duration(skew.Load())) }
	return f, skew
}

// refusals is the channel's refusals in a row as the runtime counts them.
func (f *fixture) refusals(t *testing.T) int64 {
	t.Helper()
	img, err := testenv.Get(t).Deps.Table.Item(ctx(t, 10*time.Second),
		store.Key(store.PK(f.Ch.Account, "CONN"), store.Join(f.Ch.UUID, "token")), true)
	if err != nil {
		t.Fatal(err)
	}
	return img.Int("refusals")
}

// TestClientCredentials (issue 37, acceptance 1): a channel connected with a Dev Dashboard
// app's client id and secret keeps syncing across token expiries with no refusal counted:
// one exchange for the first poll, none while the token lives, a new one before it expires
// (the runtime's clock a token's life on), and one when the shop refused a token it expired
// on its own clock (a 401, renewed once). Wrong client credentials fail Verify as a refusal
// (a 422 at connect).
func TestClientCredentials(t *testing.T) {
	t.Parallel()
	f, skew := appFixture(t)
	const ttl = 10 * time.Minute
	f.sb.TokenTTL = ttl
	skew.Store(int64(ttl)) // our clock a token's life behind the shop's
	c := ctx(t, 60*time.Second)
	if err := f.rt.Verify(c, f.Ch, f.Ch.Credentials); err != nil {
		t.Fatalf("verify: %v", err)
	}
	exchanges := f.sb.Calls(sbx.OpToken)
	poll := func(step string, wantExchanges int) {
		t.Helper()
		o := f.sb.PutOrder(f.token, time.Now(), sbx.LineInput{SKU: "A", Quantity: 1, Price: "1.00"})
		if _, err := f.rt.Poll(c, f.Ch); err != nil {
			t.Fatalf("%s: poll: %v", step, err)
		}
		imported := false
		for _, d := range f.Inbox.TakeDocs() {
			imported = imported || d["display_ref"] == o.Name
		}
		got := fmt.Sprint(imported, f.sb.Calls(sbx.OpToken)-exchanges, f.refusals(t))
		if want := fmt.Sprint(true, wantExchanges, 0); got != want {
			t.Errorf("%s: the order imported, exchanges, refusals = %s, want %s", step, got, want)
		}
		exchanges = f.sb.Calls(sbx.OpToken)
	}
	poll("first poll", 1)
	poll("token alive", 0)
	skew.Store(0) // our clock a token's life on: the token expires; renewed before the call
	poll("token expired on our clock", 1)
	f.sb.ExpireTokens() // the shop's clock: expired; a 401, renewed once
	poll("token expired on the shop's clock", 1)

	// Wrong client credentials: a refusal of the exchange at connect.
	bad, _ := json.Marshal(map[string]string{"shop_domain": "sandbox.myshopify.com", "client_id": "app-" + f.Ch.UUID,
		"client_secret": "wrong", "location_id": f.location})
	var ae *connectors.AuthError
	if err := f.rt.Verify(c, f.Ch, bad); !errors.As(err, &ae) {
		t.Errorf("verify with a wrong secret: %v, want an AuthError", err)
	}
}
