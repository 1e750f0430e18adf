package ebay

import (
	"cmp"
	"encoding/json"
	"encoding/xml"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The Trading API as the sandbox serves it: POST /ws/api.dll, the call named by
// X-EBAY-API-CALL-NAME, the user access token as X-EBAY-API-IAF-TOKEN, XML both ways.
const (
	// TradingPath is the Trading API's endpoint.
	TradingPath = "/ws/api.dll"
	// OpTrading counts and limits every Trading API call.
	OpTrading = "trading"
	// tradingNS is the Trading API's XML namespace.
	tradingNS = "urn:ebay:apis:eBLBaseComponents"
	// tradingVersion is the schema version the sandbox answers as.
	tradingVersion = "1451"
	// maxRevise is the most InventoryStatus one ReviseInventoryStatus takes.
	maxRevise = 4
	// maxEntries is the most entries a page of GetMyeBaySelling's lists holds.
	maxEntries = 200
)

// Item is a listing made outside the Inventory API (in Seller Hub or through the Trading
// API): its SKU, the quantity it shows, and whether it has ended.
type Item struct {
	SKU      string `json:"sku"`
	Quantity int64  `json:"quantity"`
	Ended    bool   `json:"ended,omitempty"`
}

// tradingError is a Trading API error of code naming values (as ErrorParameters).
func tradingError(code, msg string, values ...string) TradingError {
	e := TradingError{ShortMessage: msg, LongMessage: msg, ErrorCode: code, SeverityCode: "Error", ErrorClassification: "RequestError"}
	for i, v := range values {
		e.ErrorParameters = append(e.ErrorParameters, ErrorParameter{ParamID: strconv.Itoa(i), Value: v})
	}
	return e
}

// writeXML answers 200 with v as XML, as the Trading API answers every call.
func writeXML(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "text/xml;charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, xml.Header)
	_ = xml.NewEncoder(w).Encode(v)
}

// tradingFailure answers a call with Ack Failure and one error.
func tradingFailure(w http.ResponseWriter, call string, e TradingError) {
	writeXML(w, failureAnswer{XMLName: xml.Name{Space: tradingNS, Local: cmp.Or(call, "Error") + "Response"},
		Timestamp: Now(), Ack: "Failure", Errors: []TradingError{e}, Version: tradingVersion})
}

// trading serves the Trading API: the headers every call needs, the IAF token (an unknown
// or expired one is Failure with error 21916984), then the call.
func (s *Sandbox) trading(w http.ResponseWriter, r *http.Request) {
	call := r.Header.Get("X-EBAY-API-CALL-NAME")
	if _, err := strconv.Atoi(r.Header.Get("X-EBAY-API-SITEID")); err != nil {
		tradingFailure(w, call, tradingError("10012", "Invalid value for header X-EBAY-API-SITEID."))
		return
	}
	if _, err := strconv.Atoi(r.Header.Get("X-EBAY-API-COMPATIBILITY-LEVEL")); err != nil {
		tradingFailure(w, call, tradingError("10012", "Invalid value for header X-EBAY-API-COMPATIBILITY-LEVEL."))
		return
	}
	calls := map[string]func(http.ResponseWriter, []byte, *Seller){
		"ReviseInventoryStatus": s.reviseInventoryStatus, "GetMyeBaySelling": s.getMyeBaySelling,
	}
	h, ok := calls[call]
	if !ok {
		tradingFailure(w, call, tradingError("2", "Unsupported API call.", call))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		tradingFailure(w, call, tradingError("5", "XML Parse error."))
		return
	}
	s.Authed(func(w http.ResponseWriter, _ *http.Request) {
		tradingFailure(w, call, tradingError("21916984", "Invalid IAF token."))
	}, func(w http.ResponseWriter, _ *http.Request, sl *Seller) { h(w, body, sl) })(w, r)
}

// reviseInventoryStatus sets the quantities of one to four listings by ItemID: each that is
// the seller's, active and given a quantity of 0 or more is set and answered in
// InventoryStatus; each other fails alone with an error naming its ItemID. Ack is Success,
// PartialFailure or Failure.
func (s *Sandbox) reviseInventoryStatus(w http.ResponseWriter, body []byte, sl *Seller) {
	const call = "ReviseInventoryStatus"
	var in ReviseInventoryStatusRequest
	if err := xml.Unmarshal(body, &in); err != nil {
		tradingFailure(w, call, tradingError("5", "XML Parse error."))
		return
	}
	if len(in.InventoryStatus) == 0 || len(in.InventoryStatus) > maxRevise {
		tradingFailure(w, call, tradingError("21919301", "ReviseInventoryStatus takes one to four InventoryStatus."))
		return
	}
	out := ReviseInventoryStatusResponse{Timestamp: Now(), Version: tradingVersion}
	for _, st := range in.InventoryStatus {
		it := sl.Items[st.ItemID]
		switch {
		case it == nil:
			out.Errors = append(out.Errors, tradingError("17", "This item cannot be accessed because the listing has been deleted or you are not the seller.", st.ItemID))
		case it.Ended:
			out.Errors = append(out.Errors, tradingError("291", "You are not allowed to revise ended listings.", st.ItemID))
		case st.SKU != "" && st.SKU != it.SKU:
			out.Errors = append(out.Errors, tradingError("21916585", "The SKU does not match the listing's.", st.ItemID, st.SKU))
		case st.Quantity == nil || *st.Quantity < 0:
			out.Errors = append(out.Errors, tradingError("21916286", "Quantity must be 0 or more.", st.ItemID))
		default:
			it.Quantity = *st.Quantity
			out.InventoryStatus = append(out.InventoryStatus, InventoryStatus{ItemID: st.ItemID, SKU: it.SKU, Quantity: st.Quantity})
		}
	}
	switch {
	case len(out.Errors) == 0:
		out.Ack = "Success"
	case len(out.InventoryStatus) == 0:
		out.Ack = "Failure"
	default:
		out.Ack = "PartialFailure"
	}
	s.Save()
	writeXML(w, out)
}

// getMyeBaySelling answers a page of the seller's active listings outside the Inventory API,
// by ItemID (ActiveList.Pagination: 1 to 200 entries a page).
func (s *Sandbox) getMyeBaySelling(w http.ResponseWriter, body []byte, sl *Seller) {
	const call = "GetMyeBaySelling"
	var in GetMyeBaySellingRequest
	if err := xml.Unmarshal(body, &in); err != nil {
		tradingFailure(w, call, tradingError("5", "XML Parse error."))
		return
	}
	out := GetMyeBaySellingResponse{Timestamp: Now(), Ack: "Success", Version: tradingVersion}
	if in.ActiveList == nil || !in.ActiveList.Include {
		writeXML(w, out)
		return
	}
	per, page := 25, 1
	if p := in.ActiveList.Pagination; p != nil {
		per, page = cmp.Or(p.EntriesPerPage, per), cmp.Or(p.PageNumber, page)
	}
	if per < 1 || per > maxEntries || page < 1 {
		tradingFailure(w, call, tradingError("37", "Input data for tag <Pagination> is invalid or missing."))
		return
	}
	var active []string
	for _, id := range slices.Sorted(maps.Keys(sl.Items)) {
		if !sl.Items[id].Ended {
			active = append(active, id)
		}
	}
	list := &PaginatedItemArray{PaginationResult: PaginationResult{TotalNumberOfEntries: len(active),
		TotalNumberOfPages: (len(active) + per - 1) / per}}
	for _, id := range active[min((page-1)*per, len(active)):min(page*per, len(active))] {
		it := sl.Items[id]
		list.ItemArray.Items = append(list.ItemArray.Items, TradingItem{ItemID: id, SKU: it.SKU, ListingType: "FixedPriceItem",
			Quantity: it.Quantity, QuantityAvailable: it.Quantity})
	}
	out.ActiveList = list
	writeXML(w, out)
}

// tradingToken is a request's access token: X-EBAY-API-IAF-TOKEN on the Trading API, the
// bearer token on the REST APIs.
func tradingToken(r *http.Request) string {
	return cmp.Or(r.Header.Get("X-EBAY-API-IAF-TOKEN"), sandbox.BearerToken(r))
}

// migrate serves bulkMigrateListing: one to five listings made outside the Inventory API,
// each active and with a SKU, become an inventory item and its published offer (the listing
// keeps its ItemID as the offer's listing); any other fails alone with errorId 25718.
func (s *Sandbox) migrate(w http.ResponseWriter, r *http.Request, sl *Seller) {
	var in BulkMigrateListing
	if err := json.NewDecoder(io.LimitReader(r.Body, maxBody)).Decode(&in); err != nil || len(in.Requests) == 0 || len(in.Requests) > 5 {
		writeError(w, http.StatusBadRequest, 25709, "API_INVENTORY", "REQUEST", "Invalid value for requests: one to five listings")
		return
	}
	out := BulkMigrateListingResponse{Responses: []MigrateListingResponse{}}
	status := http.StatusOK
	for _, m := range in.Requests {
		res := MigrateListingResponse{ListingID: m.ListingID, MarketplaceID: sl.Marketplace, StatusCode: http.StatusOK}
		it := sl.Items[m.ListingID]
		switch {
		case it == nil || it.Ended || it.SKU == "":
			res.StatusCode, status = http.StatusBadRequest, http.StatusMultiStatus
			res.Errors = []Error{{ErrorID: 25718, Domain: "API_INVENTORY", Category: "REQUEST",
				Message: "Cannot migrate listing. It is not an active fixed-price listing of the seller with a SKU"}}
		default:
			if sl.Offers == nil {
				sl.Offers = map[string]*Offer{}
			}
			o := &Offer{OfferID: sl.nextID(), ListingID: m.ListingID, Available: it.Quantity}
			sl.Listings[it.SKU], sl.Offers[it.SKU] = it.Quantity, o
			delete(sl.Items, m.ListingID)
			res.InventoryItems = []InventoryItemListing{{SKU: it.SKU, OfferID: o.OfferID}}
		}
		out.Responses = append(out.Responses, res)
	}
	s.Save()
	sandbox.WriteJSON(w, status, out)
}
