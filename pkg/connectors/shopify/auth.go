package shopify

import (
	"context"
	"net/http"

	"github.com/multisell/multisell/pkg/connectors"
)

// tokenPath is the shop's token endpoint of the client-credentials grant.
const tokenPath = "/admin/oauth/access_token"

// opToken is the token endpoint's operation (not limited: one exchange a day per channel).
const opToken = "token"

// exchange is the client-credentials grant of a Dev Dashboard app at the channel's auth
// endpoint, else https://{shop_domain}/admin/oauth/access_token. A refusal is a
// *connectors.AuthError: the runtime counts it toward the channel's disconnection.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	u := s.Endpoints.Auth
	if u == "" {
		u = "https://" + cr.ShopDomain + tokenPath
	}
	return s.ClientCredentials(ctx, connectors.ClientCredentialsGrant{Op: opToken, Channel: "shopify",
		URL: u, ClientID: cr.ClientID, ClientSecret: cr.ClientSecret})
}

// authorizer sets the channel's access token on its requests: the legacy token as it is,
// or the grant's, cached by the runtime for every instance and renewed before it expires
// and once when the shop refuses it (renew).
type authorizer struct {
	s       *connectors.Session
	renewed bool
}

// expiring reports whether the credentials are a Dev Dashboard app's, whose tokens expire.
func (a *authorizer) expiring() bool { return a.s.Credentials.(credentials).ClientID != "" }

// set puts the access token on h.
func (a *authorizer) set(ctx context.Context, h http.Header) error {
	tok := a.s.Credentials.(credentials).AccessToken
	if a.expiring() {
		var err error
		if tok, err = a.s.AccessToken(ctx, a.exchange); err != nil {
			return err
		}
	}
	h.Set(tokenHeader, tok)
	return nil
}

// renew reports whether a 401 is worth one more try: once per call, with a renewed token of
// a Dev Dashboard app (the one refused may have expired on the shop's clock before ours).
func (a *authorizer) renew(ctx context.Context, h http.Header) (bool, error) {
	if !a.expiring() || a.renewed {
		return false, nil
	}
	a.renewed = true
	tok, err := a.s.RenewToken(ctx, a.exchange)
	if err != nil {
		return false, err
	}
	h.Set(tokenHeader, tok)
	return true, nil
}

// exchange is the session's exchange.
func (a *authorizer) exchange(ctx context.Context) (connectors.Token, error) {
	return exchange(ctx, a.s)
}

// tokenHeader carries the Admin API access token.
const tokenHeader = "X-Shopify-Access-Token"
