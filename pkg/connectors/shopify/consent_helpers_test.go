package shopify_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
)

// callbackURI is where the tests' consents redirect: never followed.
const callbackURI = "http://127.0.0.1:1/v1/channels/authorizations/shopify/callback"

// consent opens the consent URL of a shop of sb for the state S as a browser would, with
// the sandbox's decision ("approve" or "deny"), and returns the query of the redirect to the
// callback.
func consent(t *testing.T, sb *sbx.Shop, domain, decision string) url.Values {
	t.Helper()
	u, err := connectors.Consenter(shopify.Connector).ConsentURL(sb.ConsentApp(callbackURI),
		connectors.ConsentRequest{State: "S", Fields: map[string]string{"shop_domain": domain}})
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(u + "&sandbox_decision=" + decision)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(back.String(), callbackURI+"?") {
		t.Fatalf("consent page: %d to %q, want 302 to the callback", resp.StatusCode, back)
	}
	return back.Query()
}

// refreshCredentials are the credentials of the refresh-token form a consent to the shop
// domain of sb gives, the code exchanged with expiring=1 as the connector exchanges it,
// stocking from location.
func refreshCredentials(t *testing.T, sb *sbx.Shop, domain, location string) []byte {
	t.Helper()
	q := consent(t, sb, domain, "approve")
	form := url.Values{"client_id": {sbx.AppClientID}, "client_secret": {sbx.AppClientSecret}, "code": {q.Get("code")}, "expiring": {"1"}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, sb.URL+sbx.TokenPath, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.RefreshToken == "" {
		t.Fatalf("code exchange: %d %v, no refresh token", resp.StatusCode, err)
	}
	raw, _ := json.Marshal(map[string]string{"shop_domain": domain, "location_id": location, "client_id": sbx.AppClientID,
		"client_secret": sbx.AppClientSecret, "refresh_token": out.RefreshToken})
	return raw
}
