package ebay

import (
	"cmp"
	"context"
	"encoding/xml"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// The Trading API (XML over POST, docs/connectors.md "eBay"): what the connector calls of it
// for listings the Inventory API does not manage (made in Seller Hub or through the Trading
// API itself).
const (
	// tradingPath is the Trading API's endpoint under the API host.
	tradingPath = "/ws/api.dll"
	// CompatibilityLevel is the Trading API schema version the connector speaks.
	CompatibilityLevel = "1451"
	// MaxRevise is the most InventoryStatus one ReviseInventoryStatus takes.
	MaxRevise = 4
	// activePage is the listings one GetMyeBaySelling page holds (its most).
	activePage = 200
)

// siteIDs are the Trading API's site ids (X-EBAY-API-SITEID) of the marketplaces; any other
// marketplace is sent as the US site (0): ReviseInventoryStatus names its listings by ItemID,
// which no site changes.
var siteIDs = map[string]string{
	"EBAY_US": "0", "EBAY_MOTORS_US": "100", "EBAY_CA": "2", "EBAY_GB": "3", "EBAY_AU": "15", "EBAY_AT": "16",
	"EBAY_BE": "23", "EBAY_FR": "71", "EBAY_DE": "77", "EBAY_IT": "101", "EBAY_NL": "146", "EBAY_ES": "186",
	"EBAY_CH": "193", "EBAY_HK": "201", "EBAY_IN": "203", "EBAY_IE": "205", "EBAY_MY": "207", "EBAY_PH": "211",
	"EBAY_PL": "212", "EBAY_SG": "216",
}

// authErrors are the Trading API's error codes for a token it does not take (931 invalid,
// 932 hard expired, 21916984 an IAF token it does not accept): the channel refusing it.
var authErrors = []string{"931", "932", "21916984"}

// tradingAnswer is what every Trading API answer carries.
type tradingAnswer interface{ errors() []TradingError }

// errors implements tradingAnswer.
func (a TradingAck) errors() []TradingError { return a.Errors }

// trading makes the Trading API call name with the request in (XML) and reads its answer into
// out. The user access token goes as X-EBAY-API-IAF-TOKEN. A token the API refuses (an HTTP
// 401, or one of authErrors in the answer) is a *connectors.AuthError; another status an
// error; an answer of Ack Failure is left to the caller, whose errors may name items.
func trading(ctx context.Context, s *connectors.Session, name string, in any, out tradingAnswer) error {
	body, err := xml.Marshal(in)
	if err != nil {
		return fmt.Errorf("ebay %s: request: %w", name, err)
	}
	req := connectors.Request{Method: http.MethodPost, URL: strings.TrimSuffix(s.Endpoints.API, "/") + tradingPath,
		Header: http.Header{"Content-Type": {"text/xml"}, "X-Ebay-Api-Call-Name": {name},
			"X-Ebay-Api-Siteid":              {siteID(s.Credentials.(credentials).MarketplaceID)},
			"X-Ebay-Api-Compatibility-Level": {CompatibilityLevel}},
		Body: append([]byte(xml.Header), body...)}
	resp, err := s.Authorized(ctx, OpTrading, req, connectors.Authorized{Exchange: exchange,
		Header: func(h http.Header, token string) { h.Set("X-Ebay-Api-Iaf-Token", token) },
		Error: func(_ string, status int, body []byte) error {
			return fmt.Errorf("ebay %s: status %d: %s", name, status, clip("", string(body)))
		}})
	if err != nil {
		return err
	}
	if err := xml.Unmarshal(resp.Body, out); err != nil {
		return fmt.Errorf("ebay %s: unreadable answer: %w", name, err)
	}
	for _, e := range out.errors() {
		if slices.Contains(authErrors, e.ErrorCode) {
			return &connectors.AuthError{Message: fmt.Sprintf("ebay %s: %s", name, e.message())}
		}
	}
	return nil
}

// siteID is the Trading API site id of a marketplace.
func siteID(marketplace string) string {
	if id, ok := siteIDs[marketplace]; ok {
		return id
	}
	return "0"
}

// message is an error as "long message (ErrorCode n)".
func (e TradingError) message() string {
	return fmt.Sprintf("%s (ErrorCode %s)", strings.TrimSpace(cmp.Or(e.LongMessage, e.ShortMessage)), e.ErrorCode)
}

// names reports whether the error names the item (its ItemID or SKU among its parameters).
func (e TradingError) names(itemID, sku string) bool {
	for _, p := range e.ErrorParameters {
		if v := strings.TrimSpace(p.Value); v != "" && (v == itemID || v == sku) {
			return true
		}
	}
	return false
}

// revise sets the quantities of listings the Inventory API does not manage, keyed by their
// ItemID, in ReviseInventoryStatus calls of at most MaxRevise: an item the answer's
// InventoryStatus holds is set; one it does not is failed with the errors that name it (its
// ItemID or SKU), else with every error of the call. A refused token or a limit fails the
// whole push.
func revise(ctx context.Context, s *connectors.Session, items []listing) ([]connectors.QuantityResult, error) {
	var out []connectors.QuantityResult
	for chunk := range slices.Chunk(items, MaxRevise) {
		in := ReviseInventoryStatusRequest{}
		for _, l := range chunk {
			in.InventoryStatus = append(in.InventoryStatus, InventoryStatus{ItemID: l.ref, Quantity: ptr(l.push.Quantity)})
		}
		var ans ReviseInventoryStatusResponse
		err := trading(ctx, s, "ReviseInventoryStatus", in, &ans)
		if fatal(ctx, err) {
			return nil, err
		}
		out = append(out, revised(chunk, ans, err)...)
	}
	return out, nil
}

// revised is the result of each listing of a ReviseInventoryStatus call: err fails them all.
func revised(chunk []listing, ans ReviseInventoryStatusResponse, err error) []connectors.QuantityResult {
	done := map[string]bool{}
	for _, st := range ans.InventoryStatus {
		done[strings.TrimSpace(st.ItemID)] = true
	}
	var all []string
	for _, e := range ans.Errors {
		if e.SeverityCode != "Warning" {
			all = append(all, e.message())
		}
	}
	out := make([]connectors.QuantityResult, len(chunk))
	for i, l := range chunk {
		r := connectors.QuantityResult{ChannelSKU: l.push.ChannelSKU}
		var mine []string
		for _, e := range ans.Errors {
			if e.SeverityCode != "Warning" && e.names(l.ref, l.push.ChannelSKU) {
				mine = append(mine, e.message())
			}
		}
		switch {
		case err != nil:
			r.Error = err.Error()
		case done[l.ref] && len(mine) == 0:
			r.OK, r.ChannelQuantity = true, l.push.Quantity
		case len(mine) > 0:
			r.Error = "eBay: " + strings.Join(mine, "; ")
		case len(all) > 0:
			r.Error = "eBay: " + strings.Join(all, "; ")
		default:
			r.Error = "eBay gave no result for this listing (ItemID " + l.ref + ")"
		}
		out[i] = r
	}
	return out
}

// ptr is a pointer to v.
func ptr[T any](v T) *T { return &v }

// activeItems finds the ItemIDs of the seller's active listings of skus (the listing's own
// SKU; a multiple-variation listing is not matched) by reading GetMyeBaySelling's active list,
// page by page, until every SKU is found or the list ends.
func activeItems(ctx context.Context, s *connectors.Session, skus []string) (map[string]string, error) {
	found := map[string]string{}
	for page := 1; len(found) < len(skus); page++ {
		in := GetMyeBaySellingRequest{ActiveList: &ItemListCustomization{Include: true, HideVariations: true,
			Pagination: &Pagination{EntriesPerPage: activePage, PageNumber: page}}}
		var ans GetMyeBaySellingResponse
		if err := trading(ctx, s, "GetMyeBaySelling", in, &ans); err != nil {
			return nil, err
		}
		if ans.Ack == "Failure" {
			return nil, fmt.Errorf("ebay GetMyeBaySelling: %s", ans.messages())
		}
		if ans.ActiveList == nil {
			break
		}
		for _, it := range ans.ActiveList.ItemArray.Items {
			if sku := strings.TrimSpace(it.SKU); slices.Contains(skus, sku) && found[sku] == "" {
				found[sku] = strings.TrimSpace(it.ItemID)
			}
		}
		if page >= ans.ActiveList.PaginationResult.TotalNumberOfPages {
			break
		}
	}
	return found, nil
}

// messages joins an answer's errors.
func (a TradingAck) messages() string {
	parts := make([]string, 0, len(a.Errors))
	for _, e := range a.Errors {
		parts = append(parts, e.message())
	}
	return strings.Join(parts, "; ")
}

// isItemID reports whether a listing_ref is an eBay ItemID (digits), not an offer.
func isItemID(ref string) bool {
	_, err := strconv.ParseUint(ref, 10, 64)
	return err == nil
}
