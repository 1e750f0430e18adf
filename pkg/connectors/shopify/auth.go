package shopify

import (
	"context"
	"net/http"

	"github.com/multisell/multisell/pkg/connectors"
)

// tokenPath is the shop's token endpoint: the client-credentials grant, the code exchange
// of a consent and the refresh of expiring offline tokens.
const tokenPath = "/admin/oauth/access_token"

// opToken is the token endpoint's operation (not limited: one exchange an hour per channel
// at most).
const opToken = "token"

// tokenURL is the channel's token endpoint: its auth endpoint, else
// https://{shop}/admin/oauth/access_token.
func tokenURL(s *connectors.Session, shop string) string {
	if s.Endpoints.Auth != "" {
		return s.Endpoints.Auth
	}
	return "https://" + shop + tokenPath
}

// clientCredentials is the client-credentials grant of a Dev Dashboard app. A refusal is a
// *connectors.AuthError: the runtime counts it toward the channel's disconnection.
func clientCredentials(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	return s.ClientCredentials(ctx, connectors.ClientCredentialsGrant{Op: opToken, Channel: "shopify",
		URL: tokenURL(s, cr.ShopDomain), ClientID: cr.ClientID, ClientSecret: cr.ClientSecret})
}

// refreshGrant trades an expiring offline token's refresh token for a new access token (an
// hour) and the refresh token that replaces it (docs/connectors.md, "Rotating refresh
// tokens"). A refusal is a *connectors.AuthError.
func refreshGrant(ctx context.Context, s *connectors.Session, refresh string) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	return s.RefreshGrant(ctx, connectors.RefreshGrant{Op: opToken, Channel: "shopify", URL: tokenURL(s, cr.ShopDomain),
		ClientID: cr.ClientID, ClientSecret: cr.ClientSecret, RefreshToken: refresh})
}

// authorizer sets the channel's access token on its requests: the legacy token as it is,
// or an app's, cached by the runtime for every instance and renewed before it expires
// and once when the shop refuses it (renew).
type authorizer struct {
	s       *connectors.Session
	renewed bool
}

// expiring reports whether the credentials are an app's, whose tokens expire.
func (a *authorizer) expiring() bool { return a.s.Credentials.(credentials).ClientID != "" }

// token is an app's access token: from the rotating refresh token of an app approved by
// consent, else from the client-credentials grant.
func (a *authorizer) token(ctx context.Context) (string, error) {
	if refresh := a.s.Credentials.(credentials).RefreshToken; refresh != "" {
		return a.s.RotatingAccessToken(ctx, refresh, func(ctx context.Context, refresh string) (connectors.Token, error) {
			return refreshGrant(ctx, a.s, refresh)
		})
	}
	return a.s.AccessToken(ctx, func(ctx context.Context) (connectors.Token, error) { return clientCredentials(ctx, a.s) })
}

// set puts the access token on h.
func (a *authorizer) set(ctx context.Context, h http.Header) error {
	tok := a.s.Credentials.(credentials).AccessToken
	if a.expiring() {
		var err error
		if tok, err = a.token(ctx); err != nil {
			return err
		}
	}
	h.Set(tokenHeader, tok)
	return nil
}

// renew reports whether a 401 is worth one more try: once per call, with a renewed token of
// an app (the one refused may have expired on the shop's clock before ours): the cached
// token is dropped if it is still that one, then one instance exchanges.
func (a *authorizer) renew(ctx context.Context, h http.Header) (bool, error) {
	if !a.expiring() || a.renewed {
		return false, nil
	}
	a.renewed = true
	if err := a.s.DropToken(ctx); err != nil {
		return false, err
	}
	tok, err := a.token(ctx)
	if err != nil {
		return false, err
	}
	h.Set(tokenHeader, tok)
	return true, nil
}

// tokenHeader carries the Admin API access token.
const tokenHeader = "X-Shopify-Access-Token"
