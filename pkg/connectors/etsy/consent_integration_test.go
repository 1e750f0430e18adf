package etsy_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
)

// consent drives the consent page at consentURL as a browser would, with the kit's
// sandbox_decision, and returns where it redirects.
func consent(t *testing.T, consentURL, decision string) *url.URL {
	t.Helper()
	u, _ := url.Parse(consentURL)
	q := u.Query()
	q.Set("sandbox_decision", decision)
	u.RawQuery = q.Encode()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(u.String())
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		t.Fatalf("consent page: %d %v", resp.StatusCode, err)
	}
	return loc
}

// TestConsent: Etsy's Consenter against the sandbox: an approved consent (PKCE S256) gives
// credentials of the shop that verify; a denied one, and a code traded with another
// verifier, are refusals.
func TestConsent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	app := connectors.App{ClientID: keystring, ClientSecret: secret, RedirectURI: "http://127.0.0.1:9/v1/channels/authorizations/etsy/callback",
		ConsentURL: f.sb.URL + sbx.ConsentPath, TokenURL: f.sb.URL + sbx.TokenPath}
	verifier := rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	req := connectors.ConsentRequest{State: "state-1", CodeChallenge: base64.RawURLEncoding.EncodeToString(sum[:])}
	page, err := etsy.Connector.ConsentURL(app, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, decision, verifier string
		refused                  bool
	}{
		{"approved", "approve", verifier, false},
		{"denied", "deny", verifier, true},
		{"another verifier", "approve", rand.Text() + rand.Text(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			back := consent(t, page, tc.decision)
			if back.Query().Get("state") != "state-1" {
				t.Errorf("the redirect has state %q", back.Query().Get("state"))
			}
			raw, err := etsy.Connector.Exchange(ctx(t, time.Minute), f.session(t), app, connectors.Callback{Query: back.Query(), CodeVerifier: tc.verifier})
			var ae *connectors.AuthError
			if tc.refused {
				if !errors.As(err, &ae) {
					t.Errorf("got %v, want an AuthError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			creds, err := etsy.Connector.ParseCredentials(raw)
			if err != nil {
				t.Fatal(err)
			}
			if got := etsy.Connector.MarketplaceAccount(creds); got != "Etsy shop 31400001" {
				t.Errorf("the consent's shop is %q", got)
			}
			if err := f.rt.Verify(ctx(t, time.Minute), f.Ch, raw); err != nil {
				t.Errorf("the consent's credentials do not verify: %v", err)
			}
		})
	}
}
