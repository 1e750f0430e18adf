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

// exchange trades the refresh token for a user access token: the refresh-token grant with
// the sell scopes, the client id and secret as Basic auth. invalid_grant (a refresh token
// revoked or expired) and invalid_client are *connectors.AuthError.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	return s.RefreshGrant(ctx, connectors.RefreshGrant{Op: OpToken, Channel: "ebay",
		ClientID: cr.ClientID, ClientSecret: cr.ClientSecret, RefreshToken: cr.RefreshToken,
		Scope: strings.Join(Scopes, " "), Basic: true})
}
