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
	for _, o := range list[min(offset, len(list)):min(offset+limit, len(list))] {
		page.Orders = append(page.Orders, *o)
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
	if o.CancelStatus != nil && o.CancelStatus.CancelState == "CANCELED" {
		writeError(w, http.StatusConflict, 32600, domain, "REQUEST", "The order is cancelled: it cannot be fulfilled")
		return
	}
	shipped := s.shippedLocked(sl, o.OrderID)
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
	sl.Fulfillments[o.OrderID] = append(sl.Fulfillments[o.OrderID], in)
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
	o.LastModifiedDate = Now()
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

// shippedLocked is what the fulfillments of an order shipped, by line.
func (s *Sandbox) shippedLocked(sl *Seller, order string) map[string]int64 {
	out := map[string]int64{}
	for _, f := range sl.Fulfillments[order] {
		for _, li := range f.LineItems {
			out[li.LineItemID] += li.Quantity
		}
	}
	return out
}

// bulk sets the available quantity of up to 25 SKUs, each answered on its own: an unknown
// SKU, a negative quantity or a listing past its revisions of the day fails that SKU only
// (and the answer is 207 Multi-Status).
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
	day := time.Now().UTC().Format(time.DateOnly)
	out := BulkPriceQuantityResponse{Responses: []PriceQuantityResponse{}}
	status := http.StatusOK
	for _, pq := range in.Requests {
		res := PriceQuantityResponse{SKU: pq.SKU, StatusCode: http.StatusOK}
		fail := func(id int, msg string) {
			res.StatusCode, res.Errors = http.StatusBadRequest, []Error{{ErrorID: id, Domain: domain, Category: "REQUEST", Message: msg}}
			status = http.StatusMultiStatus
		}
		_, known := sl.Listings[pq.SKU]
		key := day + " " + pq.SKU
		switch {
		case !known:
			fail(25702, "SKU "+pq.SKU+" is not available in the system")
		case pq.ShipToLocationAvailability == nil || pq.ShipToLocationAvailability.Quantity == nil || *pq.ShipToLocationAvailability.Quantity < 0:
			fail(25604, "Invalid quantity: shipToLocationAvailability.quantity must be 0 or more")
		case sl.Revisions[key] >= DailyRevisions:
			fail(25019, "The listing has reached its limit of 250 revisions today")
		default:
			sl.Revisions[key]++
			sl.Listings[pq.SKU] = *pq.ShipToLocationAvailability.Quantity
		}
		out.Responses = append(out.Responses, res)
	}
	s.Save()
	sandbox.WriteJSON(w, status, out)
}

// Now is the sandbox's time in eBay's format.
func Now() string { return time.Now().UTC().Format(TimeFormat) }
