package connectors

import "context"

// AccountNamer is what a connector implements when its credentials name the marketplace
// account a channel is (an Amazon seller on one marketplace, a Shopify shop): one
// marketplace account is connected at most once on a multisell account (docs/connectors.md,
// "One marketplace account, one channel").
type AccountNamer interface {
	// MarketplaceAccount names the account of the parsed credentials (what
	// ParseCredentials returned), the same text for the same account however the
	// merchant wrote it; "" when they name none.
	MarketplaceAccount(credentials any) string
}

// AccountFinder is what a connector implements when only the marketplace can say which
// account its credentials open (an eBay user): it asks, through a session of those
// credentials, as AccountNamer names them.
type AccountFinder interface {
	// FindMarketplaceAccount names the account the session's credentials open, the same
	// text for the same account every time; a refusal is an *AuthError.
	FindMarketplaceAccount(ctx context.Context, s *Session) (string, error)
}

// MarketplaceAccount names the marketplace account of ch's credentials (plaintext JSON): as
// its connector's AccountNamer names them, or as its AccountFinder finds it through a
// verification session (nothing shared or written, as Verify); "" when its connector names
// none. Credentials its connector refuses are its error, cleaned of their values.
func (r *Runtime) MarketplaceAccount(ctx context.Context, ch Channel, credentials []byte) (string, error) {
	conn, err := connectorOf(ch)
	if err != nil {
		return "", err
	}
	switch c := conn.(type) {
	case AccountNamer:
		creds, err := conn.ParseCredentials(credentials)
		if err != nil {
			return "", err
		}
		return c.MarketplaceAccount(creds), nil
	case AccountFinder:
		s, err := r.newSession(ch, credentials, true)
		if err != nil {
			return "", err
		}
		name, err := c.FindMarketplaceAccount(ctx, s)
		return name, s.clean(err)
	}
	return "", nil
}
