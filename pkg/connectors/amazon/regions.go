package amazon

import (
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// The Selling Partner API's regional endpoints (Amazon's "SP-API Endpoints" page).
const (
	HostNA = "https://sellingpartnerapi-na.amazon.com"
	HostEU = "https://sellingpartnerapi-eu.amazon.com"
	HostFE = "https://sellingpartnerapi-fe.amazon.com"
)

// marketplaceHosts is the endpoint of each marketplace id, as Amazon's "Marketplace IDs"
// table groups them by region: a seller's calls go to its marketplace's region.
var marketplaceHosts = map[string]string{
	// North America: Canada, United States, Mexico, Brazil.
	"A2EUQ1WTGCTBG2": HostNA, "ATVPDKIKX0DER": HostNA, "A1AM78C64UM0Y8": HostNA, "A2Q3Y263D00KWC": HostNA,
	// Europe: Ireland, Spain, United Kingdom, France, Belgium, Netherlands, Germany, Italy,
	// Sweden, South Africa, Poland, Egypt, Turkey, Saudi Arabia, United Arab Emirates, India.
	"A28R8C7NBKEWEA": HostEU, "A1RKKUPIHCS9HS": HostEU, "A1F83G8C2ARO7P": HostEU, "A13V1IB3VIYZZH": HostEU,
	"AMEN7PMS3EDWL": HostEU, "A1805IZSGTT6HS": HostEU, "A1PA6795UKMFR9": HostEU, "APJ6JRA9NG5V4": HostEU,
	"A2NODRKZP88ZB9": HostEU, "AE08WJ6YKNBMC": HostEU, "A1C3SOZRARQ6R3": HostEU, "ARBP9OOSHTCHU": HostEU,
	"A33AVAJ2PDY3EV": HostEU, "A17E79C6D8DWNP": HostEU, "A2VIGQ35RCS4UG": HostEU, "A21TJRUUN4KGV": HostEU,
	// Far East: Singapore, Australia, Japan.
	"A19VAU5U5O7RUS": HostFE, "A39IBJ37TRP1C6": HostFE, "A1VC38T7YXB528": HostFE,
}

// HostOf is the Selling Partner API endpoint of a marketplace id ("" for one Amazon's
// table does not hold).
func HostOf(marketplace string) string { return marketplaceHosts[marketplace] }

// apiBase is the base URL of the session's calls: the channel's endpoints.api when it has
// one (a sandbox), else its marketplace's regional endpoint; a marketplace Amazon's table
// does not hold, without endpoints.api, is errs.Invalid.
func apiBase(s *connectors.Session) (string, error) {
	if s.Endpoints.API != "" {
		return s.Endpoints.API, nil
	}
	cr := s.Credentials.(credentials)
	if h := HostOf(cr.MarketplaceID); h != "" {
		return h, nil
	}
	return "", errs.Invalid("credentials.marketplace_id %q is no marketplace of Amazon's table: set endpoints.api", cr.MarketplaceID)
}
