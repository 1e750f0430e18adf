package shopify

import "strings"

// MarketplaceAccount implements connectors.AccountNamer: the shop, by its myshopify domain.
func (*connector) MarketplaceAccount(creds any) string {
	return "shop " + strings.ToLower(creds.(credentials).ShopDomain)
}
