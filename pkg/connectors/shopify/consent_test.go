package shopify_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	"github.com/multisell/multisell/pkg/errs"
)

// docQuery is the example of Shopify's authorization code grant guide: the query of a
// callback signed with the secret "hush".
const docQuery = "code=0907a61c0c8d55e99db179b68161bc00&hmac=700e2dadb827fcc8609e9d5ce208b2e9cdaab9df07390d2cbca10d7c328fc4bf&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173"

// TestVerifyHMAC: Shopify's own example verifies; a forged, missing, malformed or truncated
// hmac, another secret or a parameter changed after signing are refused as *AuthError.
func TestVerifyHMAC(t *testing.T) {
	t.Parallel()
	doc, _ := url.ParseQuery(docQuery)
	change := func(f func(q url.Values)) url.Values {
		q, _ := url.ParseQuery(docQuery)
		f(q)
		return q
	}
	cases := []struct {
		name   string
		secret string
		q      url.Values
		ok     bool
	}{
		{"Shopify's example", "hush", doc, true},
		{"another secret", "hush2", doc, false},
		{"no secret", "", doc, false},
		{"forged", "hush", change(func(q url.Values) { q.Set("hmac", strings.Replace(q.Get("hmac"), "7", "8", 1)) }), false},
		{"missing", "hush", change(func(q url.Values) { q.Del("hmac") }), false},
		{"empty", "hush", change(func(q url.Values) { q.Set("hmac", "") }), false},
		{"not hex", "hush", change(func(q url.Values) { q.Set("hmac", "zz"+q.Get("hmac")[2:]) }), false},
		{"truncated", "hush", change(func(q url.Values) { q.Set("hmac", q.Get("hmac")[:32]) }), false},
		{"another shop", "hush", change(func(q url.Values) { q.Set("shop", "other-shop.myshopify.com") }), false},
		{"a parameter added", "hush", change(func(q url.Values) { q.Set("extra", "1") }), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := shopify.VerifyHMAC(c.secret, c.q)
			var ae *connectors.AuthError
			if got := err == nil; got != c.ok || (err != nil && !errors.As(err, &ae)) {
				t.Fatalf("VerifyHMAC = %v, want ok %v (else an *AuthError)", err, c.ok)
			}
		})
	}
}

// TestConsentURL: the shop's own consent page with the app's parameters, or the configured
// one (the sandbox's) told the shop; a shop_domain that is not a myshopify.com host is invalid.
func TestConsentURL(t *testing.T) {
	t.Parallel()
	app := connectors.App{ClientID: "cid", ClientSecret: "secret", RedirectURI: "https://api.example.com/cb"}
	sandbox := app
	sandbox.ConsentURL = "http://127.0.0.1:9999/admin/oauth/authorize"
	cases := []struct {
		name, shop string
		app        connectors.App
		want       string
	}{
		{"Shopify", "Example.myshopify.com", app, "https://example.myshopify.com/admin/oauth/authorize?client_id=cid&redirect_uri=https%3A%2F%2Fapi.example.com%2Fcb&scope=read_orders%2Cread_products%2Cwrite_inventory%2Cread_locations%2Cwrite_merchant_managed_fulfillment_orders&state=S"},
		{"sandbox", "example.myshopify.com", sandbox, "http://127.0.0.1:9999/admin/oauth/authorize?client_id=cid&redirect_uri=https%3A%2F%2Fapi.example.com%2Fcb&scope=read_orders%2Cread_products%2Cwrite_inventory%2Cread_locations%2Cwrite_merchant_managed_fulfillment_orders&shop=example.myshopify.com&state=S"},
		{"another host", "example.com", app, ""},
		{"a path", "example.myshopify.com/x", app, ""},
		{"no shop", "", app, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := connectors.Consenter(shopify.Connector).ConsentURL(c.app, connectors.ConsentRequest{State: "S", Fields: map[string]string{"shop_domain": c.shop}})
			if c.want == "" {
				if errs.KindOf(err) != errs.KindInvalid {
					t.Fatalf("ConsentURL = %q, %v, want invalid", got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("ConsentURL = %q, %v\nwant %q", got, err, c.want)
			}
		})
	}
}

// TestExchangeRefused: a callback with a forged or missing hmac, of another shop, a declined
// consent or no code is refused before any call (*AuthError), never quoting the code.
func TestExchangeRefused(t *testing.T) {
	t.Parallel()
	secret := "hush"
	fields := map[string]string{"shop_domain": "some-shop.myshopify.com"}
	signed := func(kv ...string) url.Values {
		q := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		q.Set("hmac", shopify.Sign(secret, q))
		return q
	}
	doc, _ := url.ParseQuery(docQuery)
	forged, _ := url.ParseQuery(docQuery)
	forged.Set("hmac", strings.Repeat("0", 64))
	missing, _ := url.ParseQuery(docQuery)
	missing.Del("hmac")
	cases := []struct {
		name   string
		q      url.Values
		fields map[string]string
	}{
		{"forged hmac", forged, fields},
		{"missing hmac", missing, fields},
		{"another shop", doc, map[string]string{"shop_domain": "mine.myshopify.com"}},
		{"declined", signed("shop", "some-shop.myshopify.com", "state", "S", "error", "access_denied"), fields},
		{"no code", signed("shop", "some-shop.myshopify.com", "state", "S"), fields},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			app := connectors.App{ClientID: "cid", ClientSecret: secret}
			got, err := connectors.Consenter(shopify.Connector).Exchange(context.Background(), nil, app, connectors.Callback{Query: c.q, Fields: c.fields})
			var ae *connectors.AuthError
			if got != nil || !errors.As(err, &ae) || strings.Contains(err.Error(), "0907a61c0c8d55e99db179b68161bc00") {
				t.Fatalf("Exchange = %s, %v, want an *AuthError without the code", got, err)
			}
		})
	}
}
