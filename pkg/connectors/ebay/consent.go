package ebay

import (
	"cmp"
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// ConsentPage is eBay's Grant Application Access page in production (eBay's "Getting user
// consent"; the sandbox's is auth.sandbox.ebay.com).
const ConsentPage = "https://auth.ebay.com/oauth2/authorize"

// ExtraRuName is the App's Extra holding the app's RuName, eBay's name of its redirect URL,
// which both the consent request and the code exchange send as redirect_uri.
const ExtraRuName = "ru_name"

// ConsentFields implements connectors.Consenter: the marketplace the channel sells on.
func (c *connector) ConsentFields() []string { return []string{"marketplace_id"} }

// ConsentURL implements connectors.Consenter: the Grant Application Access page of the app
// with its RuName as redirect_uri, response_type code, the connector's sell scopes with the
// identity scope the connect's naming of the eBay user needs (account.go), and the state.
func (c *connector) ConsentURL(app connectors.App, req connectors.ConsentRequest) (string, error) {
	u, err := url.Parse(cmp.Or(app.ConsentURL, ConsentPage))
	if err != nil {
		return "", err
	}
	u.RawQuery = url.Values{"client_id": {app.ClientID}, "redirect_uri": {app.Extra[ExtraRuName]}, "response_type": {"code"},
		"scope": {strings.Join(append(slices.Clone(Scopes), IdentityScope), " ")}, "state": {req.State}}.Encode()
	return u.String(), nil
}

// Exchange implements connectors.Consenter: the callback's code at the token endpoint
// (grant_type authorization_code, redirect_uri the RuName, the app's client id and secret
// as Basic auth) for the user's refresh token; the credentials are an eBay channel's: that
// token, the app's client and the authorization's marketplace_id.
func (c *connector) Exchange(ctx context.Context, s *connectors.Session, app connectors.App, cb connectors.Callback) (json.RawMessage, error) {
	code := cb.Query.Get("code")
	if e := cb.Query.Get("error"); e != "" || code == "" {
		return nil, &connectors.AuthError{Message: "the user did not grant the app access: " + cmp.Or(e, "no code")}
	}
	t, err := s.CodeGrant(ctx, connectors.CodeGrant{Op: OpToken, Channel: "ebay", URL: cmp.Or(app.TokenURL, s.Endpoints.Auth),
		ClientID: app.ClientID, ClientSecret: app.ClientSecret, Code: code, RedirectURI: app.Extra[ExtraRuName], Basic: true})
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]string{"refresh_token": t.Refresh, "client_id": app.ClientID, "client_secret": app.ClientSecret,
		"marketplace_id": cb.Fields["marketplace_id"]})
}
