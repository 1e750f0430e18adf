package consent_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// TestConsentRefusals: a state reused, expired, of another account, forged or missing, a
// denied consent and a Shopify callback whose hmac is forged or missing are refused (a 404 page when no return_url can be trusted, else the
// browser back with the error code), and nothing is stored: no channel, and no page or
// redirect quotes the state or the code.
func TestConsentRefusals(t *testing.T) {
	const name = "amazon"
	env := testenv.Get(t)
	ctx := context.Background()
	// consentedAs creates an authorization of type typ of f's account (through the service,
	// at now), has the sandbox's seller decide, and returns the callback URL the browser is
	// sent to; consented is an Amazon one.
	consentedAs := func(t *testing.T, typ string, f *orderstest.Fixture, now time.Time, decision string) string {
		t.Helper()
		sb, ok := sandboxes(t)[typ]
		if !ok {
			t.Fatalf("no %s consent sandbox", typ)
		}
		seller, fields := sb.AddSeller()
		svc := env.Deps.Consent()
		svc.Now = func() time.Time { return now }
		a, err := svc.Authorize(ctx, f.Acct.ID, consent.Input{Type: typ, ReturnURL: returnPage().URL, Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		back, err := sandbox.Consent(ctx, a.ConsentURL, decision, seller)
		if err != nil {
			t.Fatal(err)
		}
		return back.String()
	}
	consented := func(t *testing.T, f *orderstest.Fixture, now time.Time, decision string) string {
		t.Helper()
		return consentedAs(t, name, f, now, decision)
	}
	// withParam is callback with its query parameter param set to value ("": removed).
	withParam := func(callback, param, value string) string {
		u, _ := url.Parse(callback)
		q := u.Query()
		if value == "" {
			q.Del(param)
		} else {
			q.Set(param, value)
		}
		u.RawQuery = q.Encode()
		return u.String()
	}
	withState := func(callback, state string) string { return withParam(callback, "state", state) }
	for _, tc := range []struct {
		name string
		// callback is the URL the browser opens, after any visits of its own.
		callback func(t *testing.T, f, other *orderstest.Fixture) string
		// wantError is the error code of the redirect; "" for the 404 page.
		wantError string
	}{
		{"reused", func(t *testing.T, f, _ *orderstest.Fixture) string {
			cb := consented(t, f, time.Now(), sandbox.Approve)
			if status, _, page := visit(t, cb); status != http.StatusSeeOther {
				t.Fatalf("first visit: %d %s", status, page)
			}
			return cb
		}, ""},
		{"expired", func(t *testing.T, f, _ *orderstest.Fixture) string {
			return consented(t, f, time.Now().Add(-consent.Lifetime-time.Second), sandbox.Approve)
		}, ""},
		{"another account's", func(t *testing.T, f, other *orderstest.Fixture) string {
			cb := consented(t, f, time.Now(), sandbox.Approve)
			u, _ := url.Parse(cb)
			_, secret, _ := strings.Cut(u.Query().Get("state"), ".")
			return withState(cb, other.Acct.ID+"."+secret)
		}, ""},
		{"forged", func(t *testing.T, f, _ *orderstest.Fixture) string {
			return withState(consented(t, f, time.Now(), sandbox.Approve), f.Acct.ID+".AAAAAAAAAAAAAAAAAAAAAAAAAA")
		}, ""},
		{"missing", func(t *testing.T, f, _ *orderstest.Fixture) string {
			return withState(consented(t, f, time.Now(), sandbox.Approve), "")
		}, ""},
		{"denied", func(t *testing.T, f, _ *orderstest.Fixture) string {
			return consented(t, f, time.Now(), sandbox.Deny)
		}, consent.CodeDenied},
		{"Shopify hmac forged", func(t *testing.T, f, _ *orderstest.Fixture) string {
			return withParam(consentedAs(t, "shopify", f, time.Now(), sandbox.Approve), "hmac", strings.Repeat("0", 64))
		}, consent.CodeRefused},
		{"Shopify hmac missing", func(t *testing.T, f, _ *orderstest.Fixture) string {
			return withParam(consentedAs(t, "shopify", f, time.Now(), sandbox.Approve), "hmac", "")
		}, consent.CodeRefused},
		{"another type's route", func(t *testing.T, f, _ *orderstest.Fixture) string {
			return strings.Replace(consented(t, f, time.Now(), sandbox.Approve), "/amazon/callback", "/ebay/callback", 1)
		}, consent.CodeWrongType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, other := orderstest.New(t), orderstest.New(t)
			cb := tc.callback(t, f, other)
			before := len(connected(t, f))
			status, loc, page := visit(t, cb)
			u, _ := url.Parse(cb)
			for _, secret := range []string{u.Query().Get("state"), u.Query().Get("spapi_oauth_code"), u.Query().Get("code")} {
				if secret != "" && (strings.Contains(page, secret) || strings.Contains(loc, secret)) {
					t.Errorf("the answer quotes the callback's state or code: %s %s", loc, page)
				}
			}
			switch {
			case tc.wantError == "" && (status != http.StatusNotFound || !strings.Contains(page, "unknown, used or expired")):
				t.Errorf("callback: %d %q %s, want the 404 page", status, loc, page)
			case tc.wantError != "" && (status != http.StatusSeeOther || !strings.HasPrefix(loc, returnPage().URL) || !strings.Contains(loc, "error="+tc.wantError)):
				t.Errorf("callback: %d %q %s, want the browser back with error=%s", status, loc, page, tc.wantError)
			}
			if got := len(connected(t, f)); got != before || (tc.name != "reused" && got != 0) {
				t.Errorf("connected channels %d after the refusal, want %d", got, before)
			}
			if got := len(connected(t, other)); got != 0 {
				t.Errorf("the other account has %d connected channels", got)
			}
		})
	}
}

// TestAuthorizationBadInput: POST /channels/authorizations answers a clear 4xx to a body
// it cannot take, and stores nothing a callback could use.
func TestAuthorizationBadInput(t *testing.T) {
	if _, ok := sandboxes(t)["amazon"]; !ok { // the app of Amazon on the stack
		t.Fatal("no Amazon consent sandbox")
	}
	f := orderstest.New(t)
	valid := func(over map[string]any) map[string]any {
		a := map[string]any{"type": "amazon", "name": "Amazon US", "return_url": returnPage().URL, "marketplace_id": "ATVPDKIKX0DER"}
		for k, v := range over {
			if v == nil {
				delete(a, k)
			} else {
				a[k] = v
			}
		}
		return map[string]any{"authorization": a}
	}
	for _, tc := range []struct {
		name string
		body any
		want int
		says string
	}{
		{"malformed JSON", `{"authorization":`, http.StatusBadRequest, ""},
		{"an array", `[]`, http.StatusBadRequest, ""},
		{"no authorization", `{}`, http.StatusUnprocessableEntity, "authorization is required"},
		{"authorization a string", `{"authorization":"amazon"}`, http.StatusUnprocessableEntity, "authorization"},
		{"type a number", valid(map[string]any{"type": 5}), http.StatusUnprocessableEntity, "authorization.type"},
		{"no type", valid(map[string]any{"type": nil}), http.StatusUnprocessableEntity, "authorization.type is required"},
		{"unknown type", valid(map[string]any{"type": "nosuchmarket"}), http.StatusUnprocessableEntity, "authorization.type"},
		{"no marketplace_id", valid(map[string]any{"marketplace_id": nil}), http.StatusUnprocessableEntity, "authorization.marketplace_id is required"},
		{"marketplace_id an object", valid(map[string]any{"marketplace_id": map[string]any{"id": "x"}}), http.StatusUnprocessableEntity, "authorization.marketplace_id"},
		{"an unknown field", valid(map[string]any{"shop_domain": "x.myshopify.com"}), http.StatusUnprocessableEntity, "authorization.shop_domain is not a field"},
		{"name too long", valid(map[string]any{"name": strings.Repeat("n", 201)}), http.StatusUnprocessableEntity, "authorization.name"},
		{"control character", valid(map[string]any{"name": "a\u0007b"}), http.StatusUnprocessableEntity, "authorization.name"},
		{"oversize", `{"authorization":{"type":"amazon","pad":"` + strings.Repeat("x", consent.MaxBody) + `"}}`, http.StatusRequestEntityTooLarge, ""},
		{"return_url not a URL", valid(map[string]any{"return_url": "not a url"}), http.StatusUnprocessableEntity, "authorization.return_url"},
		{"return_url ftp", valid(map[string]any{"return_url": "ftp://example.com/x"}), http.StatusUnprocessableEntity, "authorization.return_url"},
		{"return_url http, not loopback", valid(map[string]any{"return_url": "http://example.com/x"}), http.StatusUnprocessableEntity, "authorization.return_url"},
		{"return_url private", valid(map[string]any{"return_url": "https://10.0.0.5/x"}), http.StatusUnprocessableEntity, "authorization.return_url"},
		{"return_url metadata", valid(map[string]any{"return_url": "https://169.254.169.254/x"}), http.StatusUnprocessableEntity, "authorization.return_url"},
		{"return_url with a password", valid(map[string]any{"return_url": "https://u:p@example.com/x"}), http.StatusUnprocessableEntity, "authorization.return_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.C.Do(http.MethodPost, "/channels/authorizations", tc.body)
			if r.Status != tc.want || !strings.Contains(r.String(), tc.says) {
				t.Errorf("%d %s, want %d saying %q", r.Status, r, tc.want, tc.says)
			}
		})
	}
	t.Run("https only in AWS", func(t *testing.T) {
		svc := f.Env.Deps.Consent()
		svc.URLs = webhookhttp.Policy{}
		_, err := svc.Authorize(context.Background(), f.Acct.ID, consent.Input{Type: "amazon", ReturnURL: returnPage().URL,
			Fields: map[string]string{"marketplace_id": "ATVPDKIKX0DER"}})
		if err == nil || !strings.Contains(err.Error(), "authorization.return_url must be an https URL") {
			t.Errorf("a loopback http return_url in AWS: %v, want a 422", err)
		}
	})
}
