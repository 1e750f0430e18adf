package conformance_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

// TestPublicRoutes: the routes without the authorizer are exactly the consent callbacks
// (GET /channels/authorizations/{type}/callback, docs/connectors.md "Connecting a
// merchant"), and each answers a browser without credentials, or with wrong ones, by its
// own page: a missing or forged state is a 404 page (never the gateway's 401), no cache,
// nothing stored.
func TestPublicRoutes(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	pub := publicRoutes(t)
	if len(pub) != 1 || pub[0].String() != "GET /channels/authorizations/{type}/callback" {
		t.Fatalf("public routes %v, want the consent callback only", pub)
	}
	acct := env.NewAccount(t, testenv.AccountOptions{})
	for _, q := range []string{"", "?state=", "?state=" + acct.ID + ".AAAAAAAAAAAAAAAAAAAAAAAAAA&code=x", "?state=nothing"} {
		for _, auth := range []string{"", testenv.BasicAuth(acct), "Basic bm9ib2R5Om5vcGU="} {
			req, err := http.NewRequest(http.MethodGet, env.URL+"/channels/authorizations/amazon/callback"+q, nil)
			if err != nil {
				t.Fatal(err)
			}
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := env.Server.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "unknown, used or expired") ||
				resp.Header.Get("Cache-Control") != "no-store" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
				t.Errorf("GET callback%s (auth %q): %d %v %s, want the 404 page", q, auth, resp.StatusCode, resp.Header, body)
			}
		}
	}
}
