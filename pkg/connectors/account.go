package connectors

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

// MarketplaceAccount names the marketplace account of ch's credentials (plaintext JSON):
// "" when its connector names none. Credentials its connector refuses are its error.
func MarketplaceAccount(ch Channel, credentials []byte) (string, error) {
	conn, err := connectorOf(ch)
	if err != nil {
		return "", err
	}
	namer, ok := conn.(AccountNamer)
	if !ok {
		return "", nil
	}
	creds, err := conn.ParseCredentials(credentials)
	if err != nil {
		return "", err
	}
	return namer.MarketplaceAccount(creds), nil
}
