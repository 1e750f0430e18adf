package ebay

import (
	"context"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// Scopes are the sell scopes the connector's access tokens ask for.
var Scopes = []string{
	"https://api.ebay.com/oauth/api_scope/sell.fulfillment",
	"https://api.ebay.com/oauth/api_scope/sell.inventory",
}

// IdentityScope is the scope of the Commerce Identity API's getUser, which names the eBay
// user of a channel's refresh token (account.go). A refresh token must be granted it besides
// Scopes; the access tokens of the sell calls do not ask for it.
const IdentityScope = "https://api.ebay.com/oauth/api_scope/commerce.identity.readonly"

// exchange trades the refresh token for a user access token of the sell scopes.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	return grant(ctx, s, Scopes...)
}

// grant trades the refresh token for a user access token of scopes: the refresh-token grant,
// the client id and secret as Basic auth. invalid_grant (a refresh token revoked or expired)
// and invalid_client are *connectors.AuthError.
func grant(ctx context.Context, s *connectors.Session, scopes ...string) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	return s.RefreshGrant(ctx, connectors.RefreshGrant{Op: OpToken, Channel: "ebay",
		ClientID: cr.ClientID, ClientSecret: cr.ClientSecret, RefreshToken: cr.RefreshToken,
		Scope: strings.Join(scopes, " "), Basic: true})
}
