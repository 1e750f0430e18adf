package amazon

import "strings"

// MarketplaceAccount implements connectors.AccountNamer: the seller on its marketplace (a
// seller selling on two marketplaces connects two channels).
func (*Connector) MarketplaceAccount(creds any) string {
	c := creds.(credentials)
	return "seller " + strings.ToUpper(c.SellerID) + " on marketplace " + strings.ToUpper(c.MarketplaceID)
}
