package amazon

import (
	"cmp"
	"context"
	"encoding/json"
	"net/url"

	"github.com/multisell/multisell/pkg/connectors"
)

// ConsentPage is Seller Central's authorization page of a selling partner in North America
// (an app's other regions' Seller Central hosts go in the App's ConsentURL), as Amazon's
// "Website Authorization Workflow" builds the OAuth authorization URI.
const ConsentPage = "https://sellercentral.amazon.com/apps/authorize/consent"

// The App's Extra of an Amazon app: its application id (amzn1.sp.solution...), and "true" in
// draft for an app still in draft status (version=beta).
const (
	ExtraApplicationID = "application_id"
	ExtraDraft         = "draft"
)

// ConsentFields implements connectors.Consenter: the marketplace the channel sells on.
func (c *Connector) ConsentFields() []string { return []string{"marketplace_id"} }

// ConsentURL implements connectors.Consenter: Seller Central's consent page of the app,
// with the state, the app's redirect URI, and version=beta for a draft app.
func (c *Connector) ConsentURL(app connectors.App, req connectors.ConsentRequest) (string, error) {
	u, err := url.Parse(cmp.Or(app.ConsentURL, ConsentPage))
	if err != nil {
		return "", err
	}
	q := url.Values{"application_id": {app.Extra[ExtraApplicationID]}, "state": {req.State}}
	if app.RedirectURI != "" {
		q.Set("redirect_uri", app.RedirectURI)
	}
	if app.Extra[ExtraDraft] == "true" {
		q.Set("version", "beta")
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Exchange implements connectors.Consenter: the callback's spapi_oauth_code at Login with
// Amazon (grant_type authorization_code, with the redirect URI and the app's client id and
// secret in the form) for the seller's refresh token; the credentials are an Amazon
// channel's: that token, the app's client, the callback's selling_partner_id as seller_id
// and the authorization's marketplace_id.
func (c *Connector) Exchange(ctx context.Context, s *connectors.Session, app connectors.App, cb connectors.Callback) (json.RawMessage, error) {
	code, seller := cb.Query.Get("spapi_oauth_code"), cb.Query.Get("selling_partner_id")
	if e := cb.Query.Get("error"); e != "" || code == "" || seller == "" {
		return nil, &connectors.AuthError{Message: "the seller did not authorize the app: " + cmp.Or(e, "no spapi_oauth_code and selling_partner_id")}
	}
	t, err := s.CodeGrant(ctx, connectors.CodeGrant{Op: OpToken, Channel: "amazon", URL: cmp.Or(app.TokenURL, s.Endpoints.Auth),
		ClientID: app.ClientID, ClientSecret: app.ClientSecret, Code: code, RedirectURI: app.RedirectURI})
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]string{"refresh_token": t.Refresh, "client_id": app.ClientID, "client_secret": app.ClientSecret,
		"seller_id": seller, "marketplace_id": cb.Fields["marketplace_id"]})
}
