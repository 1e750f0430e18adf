package amazon

import (
	"context"

	"github.com/multisell/multisell/pkg/connectors"
)

// exchange is the Login with Amazon refresh-token grant at the auth endpoint (the client id
// and secret in the form). A refusal is a *connectors.AuthError: the runtime counts it
// toward the channel's disconnection.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	return s.RefreshGrant(ctx, connectors.RefreshGrant{Op: OpToken, Channel: "amazon",
		ClientID: cr.ClientID, ClientSecret: cr.ClientSecret, RefreshToken: cr.RefreshToken,
		ContentType: "application/x-www-form-urlencoded;charset=UTF-8"})
}
