package amazon

import (
	"crypto/rand"
	"net/http"
	"net/url"
	"slices"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// ConsentPath is the path of Seller Central's consent page (Amazon's "Website Authorization
// Workflow": https://sellercentral.amazon.com/apps/authorize/consent).
const ConsentPath = "/apps/authorize/consent"

// App is the sandbox's app: the local stack's operator app at Amazon, an LWA client of a
// draft Selling Partner API application.
var App = sandbox.App{ClientID: "amzn1.application-oa2-client.multisell-sandbox", Secret: "multisell-sandbox-lwa-secret",
	Name: "amzn1.sp.solution.multisell-sandbox"}

// RegisterApp registers App with the redirect URI redirect (the stack's callback route of
// Amazon) and returns it as the operator's configuration holds it: its consent page and
// token endpoint this sandbox's.
func (a *Amazon) RegisterApp(redirect string) connectors.App {
	app := App
	app.RedirectURIs = []string{redirect}
	a.Consents.Register(app)
	return connectors.App{ClientID: app.ClientID, ClientSecret: app.Secret, RedirectURI: redirect,
		ConsentURL: a.URL + ConsentPath, TokenURL: a.URL + TokenPath,
		Extra: map[string]string{amazon.ExtraApplicationID: app.Name, amazon.ExtraDraft: "true"}}
}

// consent serves ConsentPath: the seller (sandbox.Decision) authorizes the application
// application_id, and the browser goes back to the redirect_uri asked for (one the app
// registered; default its first) with state, selling_partner_id and spapi_oauth_code, a
// code for that client and redirect URI. A denial goes back with error=access_denied and
// the state (Amazon's page offers no denial; the sandbox answers as OAuth 2.0 does). An
// unknown application, redirect URI or seller, or no state, is a 400 page.
func (a *Amazon) consent(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	app, ok := a.Consents.App("", q.Get("application_id"))
	if !ok || len(app.RedirectURIs) == 0 {
		http.Error(w, "unknown application_id", http.StatusBadRequest)
		return
	}
	redirect := q.Get("redirect_uri")
	if redirect == "" {
		redirect = app.RedirectURIs[0]
	}
	if !slices.Contains(app.RedirectURIs, redirect) {
		http.Error(w, "redirect_uri is not one of the app's OAuth redirect URIs", http.StatusBadRequest)
		return
	}
	state := q.Get("state")
	seller, approve, ok := a.Decision(r)
	switch {
	case state == "":
		http.Error(w, "state is required", http.StatusBadRequest)
	case !ok:
		http.Error(w, "no such seller in the sandbox", http.StatusBadRequest)
	case !approve:
		sandbox.RedirectBack(w, r, redirect, url.Values{"error": {"access_denied"}, "state": {state}})
	default:
		sandbox.RedirectBack(w, r, redirect, url.Values{"state": {state}, "selling_partner_id": {seller},
			"spapi_oauth_code": {a.Consents.Issue(app.ClientID, redirect, seller)}})
	}
}

// consentSeller is the seller a consent on the local stack picks by default (the first by
// id): one of its own, so that approving the app leaves the demo channel's seller alone.
const consentSeller = "A0SANDBOXCONSENT"

// consentDemo is the sandbox's demo.ConsentSandbox: RegisterApp with callback, a seller of
// its own on Amazon US for each consent, its listings and quantities.
func consentDemo(a *Amazon, callback string) demo.ConsentSandbox {
	a.AddSeller(consentSeller, amazonMarketplace, "", "", "")
	return demo.ConsentSandbox{
		App: consent.AppConfig{App: a.RegisterApp(callback), Endpoints: channels.Endpoints{API: a.URL, Auth: a.URL + TokenPath}},
		AddSeller: func() (string, map[string]string) {
			id := "A" + rand.Text()[:13]
			a.AddSeller(id, amazonMarketplace, "", "", "")
			return id, map[string]string{"marketplace_id": amazonMarketplace}
		},
		Bind: a.BindChannel,
		List: func(seller, sku string) string {
			a.PutListing(seller, Listing{SKU: sku})
			return ""
		},
		Quantity: a.Quantity,
	}
}
