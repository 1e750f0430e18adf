package shopify_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
)

// TestConsentExchange: a consent approved on the sandbox's page comes back signed and its
// code gives the refresh-token credentials (the shop's primary location), which verify and
// poll; the code is single use; a declined consent, a forged hmac and the callback of
// another shop are refused, and none of it quotes the code.
func TestConsentExchange(t *testing.T) {
	f := newFixture(t)
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	app := f.sb.ConsentApp(callbackURI)
	fields := map[string]string{"shop_domain": "sandbox.myshopify.com"}
	exchange := func(q url.Values, fields map[string]string) (json.RawMessage, error) {
		return connectors.Consenter(shopify.Connector).Exchange(ctx, f.session(t), app, connectors.Callback{Query: q, Fields: fields})
	}
	approved := consent(t, f.sb, "sandbox.myshopify.com", "approve")
	for _, k := range []string{"code", "hmac", "host", "shop", "state", "timestamp"} {
		if approved.Get(k) == "" {
			t.Errorf("the approved callback has no %s: %v", k, approved)
		}
	}
	raw, err := exchange(approved, fields)
	if err != nil {
		t.Fatalf("exchange: %v", err)
	}
	var creds map[string]string
	_ = json.Unmarshal(raw, &creds)
	if creds["location_id"] != f.location || creds["refresh_token"] == "" || creds["client_id"] != sbx.AppClientID {
		t.Fatalf("credentials %v: want the shop's location %s, the app and a refresh token", creds, f.location)
	}
	ch := f.Ch
	ch.Credentials, ch.Endpoints.Auth = raw, f.sb.URL+sbx.TokenPath
	if err := f.rt.Verify(ctx, ch, raw); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if _, err := f.rt.Poll(ctx, ch); err != nil {
		t.Fatalf("poll: %v", err)
	}
	if rotated, refused := f.sb.Refreshes(); rotated < 2 || refused != 0 {
		t.Fatalf("refreshes: %d rotated (verify, poll), %d refused", rotated, refused)
	}

	forged := consent(t, f.sb, "sandbox.myshopify.com", "approve")
	forged.Set("state", "T") // the signature was of state S
	cases := []struct {
		name   string
		q      url.Values
		fields map[string]string
	}{
		{"code used", approved, fields},
		{"declined", consent(t, f.sb, "sandbox.myshopify.com", "deny"), fields},
		{"forged hmac", forged, fields},
		{"another shop", consent(t, f.sb, "sandbox.myshopify.com", "approve"), map[string]string{"shop_domain": "other.myshopify.com"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := exchange(c.q, c.fields)
			var ae *connectors.AuthError
			if got != nil || !errors.As(err, &ae) || (c.q.Get("code") != "" && containsCode(err, c.q.Get("code"))) {
				t.Fatalf("exchange = %s, %v; want an *AuthError that does not quote the code", got, err)
			}
		})
	}
}

// containsCode reports whether err quotes code.
func containsCode(err error, code string) bool {
	return err != nil && strings.Contains(err.Error(), code)
}
