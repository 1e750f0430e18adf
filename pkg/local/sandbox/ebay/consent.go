package ebay

import (
	"crypto/rand"
	"net/http"
	"net/url"
	"strings"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// ConsentPath is the path of eBay's Grant Application Access page (eBay's "Getting user
// consent": https://auth.ebay.com/oauth2/authorize).
const ConsentPath = "/oauth2/authorize"

// App is the sandbox's app: the local stack's operator app at eBay, with its RuName.
var App = sandbox.App{ClientID: "multisell-sandbox-PRD-0123456789ab", Secret: "PRD-multisell-sandbox-cert", Name: "multisell-sandbox-RuName"}

// refreshTokenLife is the life eBay states of a user's refresh token (18 months), in
// seconds.
const refreshTokenLife = 47304000

// RegisterApp registers App with its RuName's accept URL redirect (the stack's callback
// route of eBay) and returns it as the operator's configuration holds it: its consent page
// and token endpoint this sandbox's.
func (s *Sandbox) RegisterApp(redirect string) connectors.App {
	app := App
	app.RedirectURIs = []string{redirect}
	s.Consents.Register(app)
	return connectors.App{ClientID: app.ClientID, ClientSecret: app.Secret, RedirectURI: redirect,
		ConsentURL: s.URL + ConsentPath, TokenURL: s.URL + TokenPath, Extra: map[string]string{ebay.ExtraRuName: app.Name}}
}

// consent serves ConsentPath: the user (sandbox.Decision) grants the app client_id the
// scopes asked for, and the browser goes to the accept URL of the RuName in redirect_uri
// with state, code (for that client and RuName) and expires_in; a denial goes there with
// error=access_denied and the state. An unknown client or RuName, response_type other than
// code, or a scope that is not a sell scope is a 400 page.
func (s *Sandbox) consent(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	app, ok := s.Consents.App(q.Get("client_id"), "")
	switch {
	case !ok || len(app.RedirectURIs) == 0:
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	case q.Get("redirect_uri") != app.Name:
		http.Error(w, "redirect_uri must be the app's RuName", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code":
		http.Error(w, "response_type must be code", http.StatusBadRequest)
		return
	}
	for _, sc := range strings.Fields(q.Get("scope")) {
		if !knownScope(sc) {
			http.Error(w, "invalid scope", http.StatusBadRequest)
			return
		}
	}
	state := q.Get("state")
	seller, approve, ok := s.Decision(r)
	switch {
	case !ok:
		http.Error(w, "no such user in the sandbox", http.StatusBadRequest)
	case !approve:
		sandbox.RedirectBack(w, r, app.RedirectURIs[0], url.Values{"error": {"access_denied"}, "state": {state}})
	default:
		sandbox.RedirectBack(w, r, app.RedirectURIs[0], url.Values{"state": {state}, "expires_in": {"299"},
			"code": {s.Consents.Issue(app.ClientID, app.Name, seller)}})
	}
}

// consentSeller is the user a consent on the local stack picks by default (the first by
// id): one of its own, so that approving the app leaves the demo channel's seller alone.
const consentSeller = "consent-seller"

// consentDemo is the sandbox's demo.ConsentSandbox: RegisterApp with callback, a user of its
// own on EBAY_US for each consent, its listings and quantities.
func consentDemo(s *Sandbox, callback string) demo.ConsentSandbox {
	s.AddSeller(consentSeller, "", "", "EBAY_US")
	return demo.ConsentSandbox{
		App: consent.AppConfig{App: s.RegisterApp(callback), Endpoints: channels.Endpoints{API: s.URL, Auth: s.URL + TokenPath}},
		AddSeller: func() (string, map[string]string) {
			id := "consent-" + rand.Text()
			s.AddSeller(id, "", "", "EBAY_US")
			return id, map[string]string{"marketplace_id": "EBAY_US"}
		},
		Bind: s.BindChannel,
		List: func(seller, sku string) string {
			s.AddListing(seller, sku, 0)
			return ""
		},
		Quantity: s.Quantity,
	}
}
