package ebay_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestMarketplaceAccount: the runtime names an eBay channel's account by the eBay user its
// refresh token is of (getUser, with a token of the identity scope alone), the same for the
// user's credentials on another marketplace, another for another user's.
func TestMarketplaceAccount(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sb.AddSeller("client-2", "secret-2", "refresh-2", "EBAY_GB")
	c := ctx(t, time.Minute)
	name := func(client, secret, refresh, marketplace string) string {
		t.Helper()
		plain, _ := json.Marshal(map[string]string{"client_id": client, "client_secret": secret, "refresh_token": refresh, "marketplace_id": marketplace})
		got, err := f.Runtime(30*time.Second).MarketplaceAccount(c, f.Ch, plain)
		if err != nil {
			t.Fatalf("name the account of %s: %v", client, err)
		}
		return got
	}
	first := name(seller, "s3cr3t-value", "refresh-value", "EBAY_US")
	if !strings.HasPrefix(first, "eBay user u") {
		t.Errorf("the account is %q, want the eBay user", first)
	}
	if other := name(seller, "s3cr3t-value", "refresh-value", "EBAY_DE"); other != first {
		t.Errorf("the same user on another marketplace is %q, want %q", other, first)
	}
	if other := name("client-2", "secret-2", "refresh-2", "EBAY_GB"); other == first {
		t.Errorf("another user is named %q too", other)
	}
	plain, _ := json.Marshal(map[string]string{"client_id": seller, "client_secret": "s3cr3t-value", "refresh_token": "revoked", "marketplace_id": "EBAY_US"})
	_, err := f.Runtime(30*time.Second).MarketplaceAccount(c, f.Ch, plain)
	var ae *connectors.AuthError
	if !errors.As(err, &ae) || strings.Contains(err.Error(), "revoked") {
		t.Errorf("a refused token: %v, want an AuthError quoting no credential", err)
	}
}

// TestOneUserOneChannel: connecting the same eBay user twice on one account is a 409 naming
// the first channel (on another marketplace too), new credentials of another user on that
// channel are a 422, and a second account connecting the user imports the user's order into
// its own channel only.
func TestOneUserOneChannel(t *testing.T) {
	t.Parallel()
	first, second := orderstest.New(t), orderstest.New(t)
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.AddSeller("client-one", "secret-one", "refresh-one", "EBAY_US")
	sb.AddSeller("client-two", "secret-two", "refresh-two", "EBAY_US")
	creds := func(client, marketplace string) map[string]string {
		suffix := strings.TrimPrefix(client, "client-")
		return map[string]string{"client_id": client, "client_secret": "secret-" + suffix, "refresh_token": "refresh-" + suffix, "marketplace_id": marketplace}
	}
	body := func(client, marketplace string) map[string]any {
		return map[string]any{"channel": map[string]any{"name": "eBay " + client, "type": "ebay", "credentials": creds(client, marketplace),
			"endpoints": map[string]string{"api": sb.URL, "auth": sb.URL + sbx.TokenPath}}}
	}
	mine := first.C.ConnectChannel(body("client-one", "EBAY_US")).UUID
	for _, marketplace := range []string{"EBAY_US", "EBAY_GB"} {
		r := first.C.Do(http.MethodPost, "/channels", body("client-one", marketplace))
		if got, want := r.Status, http.StatusConflict; got != want || !strings.Contains(r.String(), mine) {
			t.Errorf("the same user again on %s: %d %s, want %d naming %s", marketplace, got, r, want, mine)
		}
	}
	r := first.C.Do(http.MethodPatch, "/channels/"+mine, map[string]any{"channel": map[string]any{"credentials": creds("client-two", "EBAY_US")}})
	if got, want := r.Status, http.StatusUnprocessableEntity; got != want {
		t.Errorf("another user's credentials on the channel: %d %s, want %d", got, r, want)
	}
	theirs := second.C.ConnectChannel(body("client-one", "EBAY_US")).UUID

	sb.PutOrder("client-one", sbx.NewOrder("40-00001-00001", "SKU-1", 1, time.Now()))
	connectorstest.WantOwnOrder(t, connectorstest.Connected{F: first, Channel: mine}, connectorstest.Connected{F: second, Channel: theirs})
}
