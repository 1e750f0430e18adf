package etsy

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// fail answers Etsy's error body with status.
func fail(w http.ResponseWriter, status int, msg string) {
	sandbox.WriteJSON(w, status, map[string]string{"error": msg})
}

// intParam reads the query parameter name as an integer from min (def when absent), or
// answers 400 and false.
func intParam(w http.ResponseWriter, q url.Values, name string, def, min, max int64) (int64, bool) {
	v := q.Get(name)
	if v == "" {
		return def, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < min || (max > 0 && n > max) {
		fail(w, http.StatusBadRequest, fmt.Sprintf("Invalid value for parameter %s", name))
		return 0, false
	}
	return n, true
}

// pageParams reads a page's limit (1 to 100, 25 when absent) and offset (from 0), or answers
// 400 and false.
func pageParams(w http.ResponseWriter, q url.Values) (limit, offset int64, ok bool) {
	if limit, ok = intParam(w, q, "limit", 25, 1, 100); ok {
		offset, ok = intParam(w, q, "offset", 0, 0, 0)
	}
	return limit, offset, ok
}

// getReceipts serves getShopReceipts: the receipts changed (min_last_modified,
// max_last_modified) and created (min_created, max_created) within the bounds, sorted on
// created, updated or receipt_id (ties by receipt id), up or down, limit (1 to 100) from
// offset; count is all that match.
func (s *Sandbox) getReceipts(w http.ResponseWriter, r *http.Request, sh *Shop) {
	q := r.URL.Query()
	var bounds [4]int64
	for i, name := range []string{"min_last_modified", "max_last_modified", "min_created", "max_created"} {
		v, ok := intParam(w, q, name, 0, 946684800, 0)
		if !ok {
			return
		}
		bounds[i] = v
	}
	limit, offset, ok := pageParams(w, q)
	if !ok {
		return
	}
	sortOn, order := cmp.Or(q.Get("sort_on"), "created"), cmp.Or(q.Get("sort_order"), "desc")
	if !slices.Contains([]string{"created", "updated", "receipt_id"}, sortOn) ||
		!slices.Contains([]string{"asc", "ascending", "desc", "descending", "up", "down"}, order) {
		fail(w, http.StatusBadRequest, "Invalid value for sort_on or sort_order")
		return
	}
	var rs []Receipt
	for _, rc := range sh.Receipts {
		if within(rc.UpdatedTimestamp, bounds[0], bounds[1]) && within(rc.CreatedTimestamp, bounds[2], bounds[3]) {
			rs = append(rs, *rc)
		}
	}
	key := func(rc Receipt) int64 {
		switch sortOn {
		case "updated":
			return rc.UpdatedTimestamp
		case "receipt_id":
			return rc.ReceiptID
		}
		return rc.CreatedTimestamp
	}
	desc := order == "desc" || order == "descending" || order == "down"
	slices.SortFunc(rs, func(a, b Receipt) int {
		c := cmp.Or(cmp.Compare(key(a), key(b)), cmp.Compare(a.ReceiptID, b.ReceiptID))
		if desc {
			return -c
		}
		return c
	})
	page := Receipts{Count: len(rs), Results: []Receipt{}}
	if int(offset) < len(rs) {
		page.Results = rs[offset:min(len(rs), int(offset+limit))]
	}
	sandbox.WriteJSON(w, http.StatusOK, page)
}

// within reports whether t is at least lo and at most hi (0: no bound).
func within(t, lo, hi int64) bool { return (lo == 0 || t >= lo) && (hi == 0 || t <= hi) }

// receiptOf is the shop's receipt of the path's receipt_id, or answers 404.
func receiptOf(w http.ResponseWriter, r *http.Request, sh *Shop) *Receipt {
	id, _ := strconv.ParseInt(r.PathValue("receipt_id"), 10, 64)
	rc := sh.Receipts[id]
	if rc == nil {
		fail(w, http.StatusNotFound, "Receipt not found")
	}
	return rc
}

// getReceipt serves getShopReceipt.
func (s *Sandbox) getReceipt(w http.ResponseWriter, r *http.Request, sh *Shop) {
	if rc := receiptOf(w, r, sh); rc != nil {
		sandbox.WriteJSON(w, http.StatusOK, rc)
	}
}

// getPayments serves getShopPaymentByReceiptId: the receipt's payment with its refunds.
func (s *Sandbox) getPayments(w http.ResponseWriter, r *http.Request, sh *Shop) {
	rc := receiptOf(w, r, sh)
	if rc == nil {
		return
	}
	out := Payments{Results: []Payment{}}
	if p := sh.Payments[rc.ReceiptID]; p != nil {
		out.Results = append(out.Results, *p)
	}
	out.Count = len(out.Results)
	sandbox.WriteJSON(w, http.StatusOK, out)
}

// createShipment serves createReceiptShipment: a form; a receipt shipped within the United
// States over $10 (or to India) needs tracking_code and carrier_name; a carrier_name must be
// one of Etsy's supported carriers or "other"; a canceled receipt takes none (stricter than
// published). The receipt gets one more shipment, its transactions are shipped, it is
// shipped and completed, and changed now.
func (s *Sandbox) createShipment(w http.ResponseWriter, r *http.Request, sh *Shop) {
	rc := receiptOf(w, r, sh)
	if rc == nil {
		return
	}
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") || r.ParseForm() != nil {
		fail(w, http.StatusBadRequest, "a form body is required")
		return
	}
	tracking, carrier := r.PostForm.Get("tracking_code"), r.PostForm.Get("carrier_name")
	total := rc.Grandtotal
	switch {
	case rc.Status == "canceled":
		fail(w, http.StatusBadRequest, "The receipt is canceled")
		return
	case (tracking == "" || carrier == "") && (rc.CountryISO == "IN" || rc.CountryISO == "US" && total.CurrencyCode == "USD" && total.Amount*100 > 1000*total.Divisor):
		fail(w, http.StatusBadRequest, "A tracking number is required")
		return
	case carrier != "" && !slices.Contains(slices.Collect(maps.Values(carriers.RulesFor("Etsy").Codes)), carrier):
		fail(w, http.StatusBadRequest, "carrier_name "+carrier+" is not a supported carrier; use other")
		return
	}
	now := time.Now().Unix()
	id := sh.next()
	rc.Shipments = append(rc.Shipments, Shipment{ReceiptShippingID: &id, ShipmentNotificationTimestamp: now, CarrierName: carrier, TrackingCode: tracking})
	for i := range rc.Transactions {
		if rc.Transactions[i].ShippedTimestamp == nil {
			rc.Transactions[i].ShippedTimestamp = &now
		}
	}
	rc.IsShipped, rc.Status = true, "completed"
	touch(rc, now)
	s.Save()
	sandbox.WriteJSON(w, http.StatusOK, rc)
}

// touch makes now the receipt's last change.
func touch(rc *Receipt, now int64) {
	rc.UpdateTimestamp, rc.UpdatedTimestamp = now, now
}

// getListings serves getListingsByShop: the shop's listings of state (active by default),
// limit (1 to 100) from offset by listing id, with their inventory when includes has
// Inventory.
func (s *Sandbox) getListings(w http.ResponseWriter, r *http.Request, sh *Shop) {
	q := r.URL.Query()
	limit, offset, ok := pageParams(w, q)
	if !ok {
		return
	}
	state := cmp.Or(q.Get("state"), "active")
	withInv := slices.Contains(strings.Split(strings.Join(q["includes"], ","), ","), "Inventory")
	var ls []Listing
	for _, id := range slices.Sorted(maps.Keys(sh.Listings)) {
		l := sh.Listings[id]
		if l.State != state {
			continue
		}
		out := Listing{ListingID: id, UserID: sh.UserID, ShopID: sh.ShopID, Title: l.Title, State: l.State, Quantity: l.quantity(),
			HasVariations: len(l.Inventory.Products) > 1}
		if withInv {
			inv := l.visible()
			out.Inventory = &inv
		}
		ls = append(ls, out)
	}
	page := Listings{Count: len(ls), Results: []Listing{}}
	if int(offset) < len(ls) {
		page.Results = ls[offset:min(len(ls), int(offset+limit))]
	}
	sandbox.WriteJSON(w, http.StatusOK, page)
}

// quantity is the listing's quantity: the sum of its enabled offerings' (Etsy's
// ShopListing.quantity).
func (l *ListingState) quantity() int64 {
	var n int64
	for _, p := range l.Inventory.Products {
		for _, o := range p.Offerings {
			if !p.IsDeleted && !o.IsDeleted && o.IsEnabled {
				n += o.Quantity
			}
		}
	}
	return n
}

// visible is the inventory without its deleted products (show_deleted false).
func (l *ListingState) visible() Inventory {
	inv := l.Inventory
	inv.Products = slices.DeleteFunc(slices.Clone(inv.Products), func(p Product) bool { return p.IsDeleted })
	return inv
}

// listingOf is the shop's listing of the path's listing_id, or answers 404 (403 for another
// shop's).
func (s *Sandbox) listingOf(w http.ResponseWriter, r *http.Request, sh *Shop) *ListingState {
	id, _ := strconv.ParseInt(r.PathValue("listing_id"), 10, 64)
	if l := sh.Listings[id]; l != nil {
		return l
	}
	for _, other := range s.Sellers() {
		if other.Listings[id] != nil {
			fail(w, http.StatusForbidden, "The listing is not the shop's")
			return nil
		}
	}
	fail(w, http.StatusNotFound, "Listing not found")
	return nil
}

// getInventory serves getListingInventory (deleted products with show_deleted=true), then
// runs AfterRead.
func (s *Sandbox) getInventory(w http.ResponseWriter, r *http.Request, sh *Shop) {
	l := s.listingOf(w, r, sh)
	if l == nil {
		return
	}
	inv := l.visible()
	if r.URL.Query().Get("show_deleted") == "true" {
		inv = l.Inventory
	}
	sandbox.WriteJSON(w, http.StatusOK, inv)
	if s.AfterRead != nil {
		s.AfterRead(sh, l)
		s.Save()
	}
}

// updateInventory serves updateListingInventory: the body is the listing's whole inventory
// (check), which replaces it; a product of the listing the body does not have is dropped
// (deleted), as Etsy drops it. Products are matched to the old ones by their property
// values, keeping their ids.
func (s *Sandbox) updateInventory(w http.ResponseWriter, r *http.Request, sh *Shop) {
	l := s.listingOf(w, r, sh)
	if l == nil {
		return
	}
	var in UpdateInventory
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(&in); err != nil {
		fail(w, http.StatusBadRequest, "The body must be a JSON inventory: "+err.Error())
		return
	}
	products, msg := check(in, l.Inventory.Products)
	if msg != "" {
		fail(w, http.StatusBadRequest, msg)
		return
	}
	for i := range products {
		if products[i].ProductID == 0 {
			products[i].ProductID = sh.next()
		}
		for j := range products[i].Offerings {
			products[i].Offerings[j].OfferingID = sh.next()
		}
	}
	for _, old := range l.Inventory.Products {
		if !slices.ContainsFunc(products, func(p Product) bool { return p.ProductID == old.ProductID }) {
			old.IsDeleted = true
			products = append(products, old)
		}
	}
	l.Inventory = Inventory{Products: products, PriceOnProperty: orEmpty(in.PriceOnProperty),
		QuantityOnProperty: orEmpty(in.QuantityOnProperty), SKUOnProperty: orEmpty(in.SKUOnProperty)}
	if l.quantity() == 0 && l.State == "active" {
		l.State = "sold_out"
	} else if l.quantity() > 0 && l.State == "sold_out" {
		l.State = "active"
	}
	s.Save()
	sandbox.WriteJSON(w, http.StatusOK, l.visible())
}

// orEmpty is v, or an empty slice for nil.
func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
