package auth_test

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestAuthenticationFailures drives every way to fail authentication through
// the local gateway: each is the same 401 with the JSON error and the
// WWW-Authenticate challenge.
func TestAuthenticationFailures(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	other := env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	cases := map[string]string{
		"missing header": "",
		"bearer scheme":  "Bearer " + enc(acct.Token+":"+acct.Secret),
		"bad base64":     "Basic not*base64",
		"no colon":       "Basic " + enc(acct.Token+acct.Secret),
		"empty token":    "Basic " + enc(":"+acct.Secret),
		"empty secret":   "Basic " + enc(acct.Token+":"),
		"unknown token":  "Basic " + enc("nosuchtoken:"+acct.Secret),
		"wrong secret":   "Basic " + enc(acct.Token+":"+acct.Secret+"x"),
		"other's secret": "Basic " + enc(acct.Token+":"+other.Secret),
	}
	for name, header := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := c.WithAuth(header).Do(http.MethodGet, "/warehouses", nil)
			if r.Status != http.StatusUnauthorized || r.String() != `{"error":"Could not authenticate you"}` {
				t.Fatalf("got %d %s, want 401", r.Status, r)
			}
			if got := r.Header.Get("WWW-Authenticate"); got != `Basic realm="multisell"` {
				t.Errorf("WWW-Authenticate = %q", got)
			}
		})
	}
	if r := c.Do(http.MethodGet, "/warehouses", nil); r.Status != http.StatusOK {
		t.Fatalf("valid credentials: got %d %s", r.Status, r)
	}
}
