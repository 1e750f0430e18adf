package sandbox_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/local/sandbox"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	ebaysb "github.com/multisell/multisell/pkg/local/sandbox/ebay"
)

// consentMarket is a sandbox with a consent page, seen by the tests: its app as registered,
// the connector that builds its consent URL, how its code comes back and is exchanged.
type consentMarket struct {
	name      string
	app       connectors.App
	consenter connectors.Consenter
	consents  *sandbox.Consents
	// codeParam is the callback's query parameter of the code; basic sends the client as
	// Basic auth; redirect is the redirect_uri the exchange sends.
	codeParam string
	basic     bool
	redirect  string
}

// consentMarkets starts an Amazon and an eBay sandbox, each with seller S1 and its app
// registered with redirect.
func consentMarkets(t *testing.T, redirect string) []consentMarket {
	t.Helper()
	a, err := amazonsb.New()
	if err != nil {
		t.Fatal(err)
	}
	e, err := ebaysb.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(); _ = e.Close() })
	a.AddSeller("S1", "ATVPDKIKX0DER", "", "", "")
	e.AddSeller("S1", "", "", "EBAY_US")
	aApp, eApp := a.RegisterApp(redirect), e.RegisterApp(redirect)
	return []consentMarket{
		{name: "amazon", app: aApp, consenter: amazon.Default, consents: &a.Consents, codeParam: "spapi_oauth_code", redirect: redirect},
		{name: "ebay", app: eApp, consenter: ebay.Connector, consents: &e.Consents, codeParam: "code", basic: true,
			redirect: eApp.Extra[ebay.ExtraRuName]},
	}
}

// exchange posts the authorization-code grant of code to m's token endpoint as client
// id:secret with redirect, and returns the status and the answer.
func (m consentMarket) exchange(t *testing.T, id, secret, code, redirect string) (int, map[string]any) {
	t.Helper()
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect}}
	if !m.basic {
		form.Set("client_id", id)
		form.Set("client_secret", secret)
	}
	req, err := http.NewRequest(http.MethodPost, m.app.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	if m.basic {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(id+":"+secret)))
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// TestConsentPages: each sandbox's consent page, opened at the consent URL its connector
// builds, sends the browser to the app's redirect URI with the state and a code (approve)
// or error=access_denied (deny); the code is exchanged once, by its client with its secret
// and redirect_uri, before it expires, for a refresh token the token endpoint then takes;
// anything else is refused as the marketplace does.
func TestConsentPages(t *testing.T) {
	t.Parallel()
	const redirect = "https://multisell.example.com/v1/channels/authorizations/x/callback"
	for _, m := range consentMarkets(t, redirect) {
		t.Run(m.name, func(t *testing.T) {
			ctx := context.Background()
			consentURL, err := m.consenter.ConsentURL(m.app, connectors.ConsentRequest{State: "st-1"})
			if err != nil {
				t.Fatal(err)
			}
			code := func(t *testing.T) string {
				back, err := sandbox.Consent(ctx, consentURL, sandbox.Approve, "S1")
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(back.String(), redirect+"?") || back.Query().Get("state") != "st-1" || back.Query().Get(m.codeParam) == "" {
					t.Fatalf("approved: back to %s", back)
				}
				return back.Query().Get(m.codeParam)
			}
			t.Run("denied", func(t *testing.T) {
				back, err := sandbox.Consent(ctx, consentURL, sandbox.Deny, "")
				if err != nil || back.Query().Get("error") != "access_denied" || back.Query().Get("state") != "st-1" || back.Query().Get(m.codeParam) != "" {
					t.Errorf("denied: back to %v, %v", back, err)
				}
			})
			t.Run("unknown seller", func(t *testing.T) {
				if _, err := sandbox.Consent(ctx, consentURL, sandbox.Approve, "nobody"); err == nil || !strings.Contains(err.Error(), "400") {
					t.Errorf("an unknown seller: %v, want the 400 page", err)
				}
			})
			for _, tc := range []struct {
				name      string
				id        string
				secret    string
				redirect  string
				want      int
				wantError string
			}{
				{"another client", "someone-else", m.app.ClientSecret, m.redirect, http.StatusUnauthorized, "invalid_client"},
				{"a wrong secret", m.app.ClientID, "wrong", m.redirect, http.StatusUnauthorized, "invalid_client"},
				{"another redirect_uri", m.app.ClientID, m.app.ClientSecret, m.redirect + "x", http.StatusBadRequest, "invalid_grant"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					c := code(t)
					if status, got := m.exchange(t, tc.id, tc.secret, c, tc.redirect); status != tc.want || got["error"] != tc.wantError {
						t.Errorf("%d %v, want %d %s", status, got, tc.want, tc.wantError)
					}
				})
			}
			t.Run("exchanged once", func(t *testing.T) {
				c := code(t)
				status, got := m.exchange(t, m.app.ClientID, m.app.ClientSecret, c, m.redirect)
				refresh, _ := got["refresh_token"].(string)
				if status != http.StatusOK || refresh == "" || got["access_token"] == "" {
					t.Fatalf("exchange: %d %v", status, got)
				}
				if status, got := m.exchange(t, m.app.ClientID, m.app.ClientSecret, c, m.redirect); status != http.StatusBadRequest || got["error"] != "invalid_grant" {
					t.Errorf("the code again: %d %v, want 400 invalid_grant", status, got)
				}
			})
			t.Run("expired", func(t *testing.T) {
				m.consents.CodeTTL = -time.Second
				defer func() { m.consents.CodeTTL = 0 }()
				c := code(t)
				if status, got := m.exchange(t, m.app.ClientID, m.app.ClientSecret, c, m.redirect); status != http.StatusBadRequest || got["error"] != "invalid_grant" {
					t.Errorf("an expired code: %d %v, want 400 invalid_grant", status, got)
				}
			})
		})
	}
}
