package ebay

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// maxBody bounds a request body.
const maxBody = 1 << 20

// getOrders answers a page of the seller's orders modified within the filter's range, by
// lastModifiedDate then orderId, from offset.
func (s *Sandbox) getOrders(w http.ResponseWriter, r *http.Request, sl *Seller) {
	q := r.URL.Query()
	from, to, err := lastModified(q.Get("filter"))
	if err != nil {
		writeError(w, http.StatusBadRequest, 30830, "API_FULFILLMENT", "REQUEST", err.Error())
		return
	}
	limit, offset := 50, 0
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 200 {
			writeError(w, http.StatusBadRequest, 30700, "API_FULFILLMENT", "REQUEST", "Invalid limit. Supported ranges 1 - 200.")
			return
		}
	}
	if v := q.Get("offset"); v != "" {
		if offset, err = strconv.Atoi(v); err != nil || offset < 0 {
			writeError(w, http.StatusBadRequest, 30700, "API_FULFILLMENT", "REQUEST", "Invalid offset.")
			return
		}
	}
	var list []*Order
	for _, o := range sl.Orders {
		at, _ := time.Parse(time.RFC3339Nano, o.LastModifiedDate)
		if !at.Before(from) && (to.IsZero() || !at.After(to)) {
			list = append(list, o)
		}
	}
	slices.SortFunc(list, func(a, b *Order) int {
		return cmp.Or(strings.Compare(a.LastModifiedDate, b.LastModifiedDate), strings.Compare(a.OrderID, b.OrderID))
	})
	page := OrderSearchPagedCollection{Href: r.URL.String(), Limit: limit, Offset: offset, Total: len(list), Orders: []Order{}}
	breakdown := q.Get("fieldGroups") == "TAX_BREAKDOWN"
	for _, o := range list[min(offset, len(list)):min(offset+limit, len(list))] {
		if breakdown {
			page.Orders = append(page.Orders, *o)
		} else {
			page.Orders = append(page.Orders, withoutBreakdown(*o))
		}
	}
	if offset+limit < len(list) {
		nq := r.URL.Query()
		nq.Set("offset", strconv.Itoa(offset+limit))
		page.Next = ordersPath + "?" + nq.Encode()
	}
	sandbox.WriteJSON(w, http.StatusOK, page)
}

// lastModified reads the filter "lastmodifieddate:[FROM..]" or "[FROM..TO]".
func lastModified(f string) (from, to time.Time, err error) {
	bad := fmt.Errorf("invalid filter: %q. The filter must be lastmodifieddate:[FROM..] or [FROM..TO] with ISO 8601 UTC times", f)
	v, ok := strings.CutPrefix(f, "lastmodifieddate:[")
	if !ok {
		if f == "" {
			return time.Time{}, time.Time{}, nil
		}
		return time.Time{}, time.Time{}, bad
	}
	v, ok = strings.CutSuffix(v, "]")
	a, b, ok2 := strings.Cut(v, "..")
	if !ok || !ok2 {
		return time.Time{}, time.Time{}, bad
	}
	if from, err = time.Parse(time.RFC3339Nano, a); err != nil || !strings.HasSuffix(a, "Z") {
		return time.Time{}, time.Time{}, bad
	}
	if b != "" {
		if to, err = time.Parse(time.RFC3339Nano, b); err != nil {
			return time.Time{}, time.Time{}, bad
		}
	}
	return from, to, nil
}

// fulfill creates a shipping fulfillment of lines of an order: each line at most its
// quantity not yet shipped; the order's lines and status follow.
func (s *Sandbox) fulfill(w http.ResponseWriter, r *http.Request, sl *Seller) {
	const domain = "API_FULFILLMENT"
	o := sl.Orders[r.PathValue("orderId")]
	if o == nil {
		writeError(w, http.StatusNotFound, 32100, domain, "REQUEST", "Invalid order ID: "+r.PathValue("orderId"))
		return
	}
	var in ShippingFulfillmentDetails
	if err := json.NewDecoder(io.LimitReader(r.Body, maxBody)).Decode(&in); err != nil || len(in.LineItems) == 0 {
		writeError(w, http.StatusBadRequest, 32800, domain, "REQUEST", "Invalid request body: lineItems are required")
		return
	}
	if in.TrackingNumber == "" || in.ShippingCarrierCode == "" {
		writeError(w, http.StatusBadRequest, 32500, domain, "REQUEST", "shippingCarrierCode and trackingNumber are required")
		return
	}
	if !carrierCodes[in.ShippingCarrierCode] {
		writeError(w, http.StatusBadRequest, 32500, domain, "REQUEST", "Invalid shippingCarrierCode: "+in.ShippingCarrierCode)
		return
	}
	if o.CancelStatus != nil && o.CancelStatus.CancelState == "CANCELED" {
		writeError(w, http.StatusConflict, 32600, domain, "REQUEST", "The order is cancelled: it cannot be fulfilled")
		return
	}
	shipped := sl.shipped(o.OrderID)
	for _, ref := range in.LineItems {
		i := slices.IndexFunc(o.LineItems, func(li LineItem) bool { return li.LineItemID == ref.LineItemID })
		if i < 0 {
			writeError(w, http.StatusBadRequest, 32400, domain, "REQUEST", "Invalid line item ID: "+ref.LineItemID)
			return
		}
		if ref.Quantity < 1 || shipped[ref.LineItemID]+ref.Quantity > o.LineItems[i].Quantity {
			writeError(w, http.StatusBadRequest, 32700, domain, "REQUEST",
				fmt.Sprintf("The quantity of line item %s exceeds what remains to ship", ref.LineItemID))
			return
		}
		shipped[ref.LineItemID] += ref.Quantity
	}
	sl.addFulfillment(o, in)
	s.Save()
	id := strconv.Itoa(len(sl.Fulfillments[o.OrderID]))
	w.Header().Set("Location", ordersPath+"/"+o.OrderID+"/shipping_fulfillment/"+id)
	sandbox.WriteJSON(w, http.StatusCreated, struct{}{})
}

// fulfillments answers the shipping fulfillments of an order, their ids the ones
// createShippingFulfillment's Location gave.
func (s *Sandbox) fulfillments(w http.ResponseWriter, r *http.Request, sl *Seller) {
	o := sl.Orders[r.PathValue("orderId")]
	if o == nil {
		writeError(w, http.StatusBadRequest, 32100, "API_FULFILLMENT", "REQUEST", "Invalid order ID: "+r.PathValue("orderId"))
		return
	}
	out := ShippingFulfillmentPagedCollection{Fulfillments: []ShippingFulfillment{}}
	for i, f := range sl.Fulfillments[o.OrderID] {
		out.Fulfillments = append(out.Fulfillments, ShippingFulfillment{FulfillmentID: strconv.Itoa(i + 1),
			LineItems: f.LineItems, ShipmentTrackingNumber: f.TrackingNumber, ShippedDate: f.ShippedDate,
			ShippingCarrierCode: f.ShippingCarrierCode})
	}
	out.Total = len(out.Fulfillments)
	sandbox.WriteJSON(w, http.StatusOK, out)
}

// addFulfillment records a shipping fulfillment of the order (the lock held): the lines and
// the order's fulfillment statuses follow, and it is the order's last change.
func (sl *Seller) addFulfillment(o *Order, in ShippingFulfillmentDetails) {
	sl.Fulfillments[o.OrderID] = append(sl.Fulfillments[o.OrderID], in)
	shipped := sl.shipped(o.OrderID)
	all := true
	for i, li := range o.LineItems {
		switch {
		case shipped[li.LineItemID] >= li.Quantity:
			o.LineItems[i].LineItemFulfillmentStatus = "FULFILLED"
		case shipped[li.LineItemID] > 0:
			o.LineItems[i].LineItemFulfillmentStatus, all = "IN_PROGRESS", false
		default:
			all = false
		}
	}
	o.OrderFulfillmentStatus = map[bool]string{true: "FULFILLED", false: "IN_PROGRESS"}[all]
	o.FulfillmentHrefs = append(o.FulfillmentHrefs, ordersPath+"/"+o.OrderID+"/shipping_fulfillment/"+strconv.Itoa(len(sl.Fulfillments[o.OrderID])))
	o.LastModifiedDate = Now()
}

// shipped is what the fulfillments of an order shipped, by line (the lock held).
func (sl *Seller) shipped(order string) map[string]int64 {
	out := map[string]int64{}
	for _, f := range sl.Fulfillments[order] {
		for _, li := range f.LineItems {
			out[li.LineItemID] += li.Quantity
		}
	}
	return out
}

// bulk sets the ship-to-home quantity of up to 25 SKUs and the availableQuantity of their
// offers, each answered on its own (one response for the item, one per offer): an unknown SKU
// or offer, a negative quantity, an offer above its item's quantity or a listing past its
// revisions of the day fails that SKU or offer only (and the answer is 207 Multi-Status).
func (s *Sandbox) bulk(w http.ResponseWriter, r *http.Request, sl *Seller) {
	const domain = "API_INVENTORY"
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, 25709, domain, "REQUEST", "Invalid value for header Content-Type")
		return
	}
	var in BulkPriceQuantity
	if err := json.NewDecoder(io.LimitReader(r.Body, maxBody)).Decode(&in); err != nil || len(in.Requests) == 0 || len(in.Requests) > MaxBulkRequests {
		writeError(w, http.StatusBadRequest, 25734, domain, "REQUEST", "The request must hold 1 to 25 requests")
		return
	}
	out := BulkPriceQuantityResponse{Responses: []PriceQuantityResponse{}}
	status := http.StatusOK
	for _, pq := range in.Requests {
		for _, res := range sl.priceQuantity(pq) {
			if res.StatusCode != http.StatusOK {
				status = http.StatusMultiStatus
			}
			out.Responses = append(out.Responses, res)
		}
	}
	s.Save()
	sandbox.WriteJSON(w, status, out)
}

// priceQuantity applies one request of a bulkUpdatePriceQuantity (the lock held) and
// answers the item's response and one per offer.
func (sl *Seller) priceQuantity(pq PriceQuantity) []PriceQuantityResponse {
	const domain = "API_INVENTORY"
	failed := func(res PriceQuantityResponse, id int, msg string) PriceQuantityResponse {
		res.StatusCode, res.Errors = http.StatusBadRequest, []Error{{ErrorID: id, Domain: domain, Category: "REQUEST", Message: msg}}
		return res
	}
	item := PriceQuantityResponse{SKU: pq.SKU, StatusCode: http.StatusOK}
	key := time.Now().UTC().Format(time.DateOnly) + " " + pq.SKU
	_, known := sl.Listings[pq.SKU]
	avail := pq.ShipToLocationAvailability
	switch {
	case !known:
		return []PriceQuantityResponse{failed(item, 25702, "SKU "+pq.SKU+" is not available in the system")}
	case avail == nil && len(pq.Offers) == 0,
		avail != nil && (avail.Quantity == nil || *avail.Quantity < 0):
		return []PriceQuantityResponse{failed(item, 25604, "Invalid quantity: shipToLocationAvailability.quantity must be 0 or more")}
	case sl.Revisions[key] >= DailyRevisions:
		return []PriceQuantityResponse{failed(item, 25019, "The listing has reached its limit of 250 revisions today")}
	}
	sl.Revisions[key]++
	if avail != nil {
		sl.Listings[pq.SKU] = *avail.Quantity
	}
	out := []PriceQuantityResponse{item}
	for _, op := range pq.Offers {
		res := PriceQuantityResponse{SKU: pq.SKU, OfferID: op.OfferID, StatusCode: http.StatusOK}
		o := sl.Offers[pq.SKU]
		switch {
		case o == nil || o.OfferID != op.OfferID:
			res = failed(res, 25713, "This Offer is not available: "+op.OfferID)
		case op.AvailableQuantity == nil || *op.AvailableQuantity < 0 || *op.AvailableQuantity > sl.Listings[pq.SKU]:
			res = failed(res, 25709, "Invalid value for availableQuantity: it must be 0 to the item's shipToLocationAvailability.quantity")
		default:
			o.Available = *op.AvailableQuantity
		}
		out = append(out, res)
	}
	return out
}

// getOffers answers the seller's offers of a SKU on the marketplace asked (all of them when
// none is): 404 with errorId 25713 when the SKU has none.
func (s *Sandbox) getOffers(w http.ResponseWriter, r *http.Request, sl *Seller) {
	q := r.URL.Query()
	sku := q.Get("sku")
	if sku == "" {
		writeError(w, http.StatusBadRequest, 25709, "API_INVENTORY", "REQUEST", "Invalid value for sku")
		return
	}
	o := sl.Offers[sku]
	if m := q.Get("marketplace_id"); o == nil || m != "" && m != sl.Marketplace {
		writeError(w, http.StatusNotFound, 25713, "API_INVENTORY", "REQUEST", "This Offer is not available.")
		return
	}
	sandbox.WriteJSON(w, http.StatusOK, Offers{Href: r.URL.String(), Limit: 25, Size: 1, Total: 1,
		Offers: []EbayOfferDetailsWithAll{{OfferID: o.OfferID, SKU: sku, MarketplaceID: sl.Marketplace, Format: "FIXED_PRICE",
			Status: "PUBLISHED", AvailableQuantity: o.Available, Listing: &ListingDetails{ListingID: o.ListingID, ListingStatus: "ACTIVE"}}}})
}

// Now is the sandbox's time in eBay's format.
func Now() string { return time.Now().UTC().Format(TimeFormat) }
