package etsy

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// Open returns a started sandbox whose state is kept in file (sandbox.OpenSaved).
func Open(file string) (*Sandbox, error) { return sandbox.OpenSaved(file, newSandbox) }

// AddShop opens shop shopID of the user userID for the app clientID (its keystring) and
// secret (its shared secret), with refresh the owner's refresh token.
func (s *Sandbox) AddShop(shopID, userID int64, clientID, secret, refresh string) {
	id := strconv.FormatInt(shopID, 10)
	s.Add(id, sandbox.Account{ClientID: clientID, Secret: secret, Refresh: refresh}, func() *Shop {
		return &Shop{Listings: map[int64]*ListingState{}, Receipts: map[int64]*Receipt{}, Payments: map[int64]*Payment{},
			Refresh: map[string]*RefreshState{}, Codes: map[string]*CodeState{}}
	})
	s.Change(id, func(sh *Shop) {
		sh.ShopID, sh.UserID, sh.Name = shopID, userID, "Sandbox shop "+id
		sh.Refresh[refresh] = &RefreshState{}
	})
}

// AddListing lists one product of sku on the shop, showing quantity at 19.99 USD, and
// returns the listing id.
func (s *Sandbox) AddListing(shopID int64, sku string, quantity int64) int64 {
	return s.PutListing(shopID, Inventory{Products: []Product{{SKU: sku, Offerings: []Offering{{Quantity: quantity, IsEnabled: true,
		Price: Money{Amount: unitCents, Divisor: 100, CurrencyCode: "USD"}}}}}})
}

// PutListing lists a listing of the inventory inv (its products' and offerings' ids given
// here) on the shop and returns its id.
func (s *Sandbox) PutListing(shopID int64, inv Inventory) (id int64) {
	s.Change(strconv.FormatInt(shopID, 10), func(sh *Shop) {
		id = sh.next()
		for i := range inv.Products {
			inv.Products[i].ProductID = sh.next()
			for j := range inv.Products[i].Offerings {
				inv.Products[i].Offerings[j].OfferingID = sh.next()
			}
		}
		inv.PriceOnProperty, inv.QuantityOnProperty, inv.SKUOnProperty = orEmpty(inv.PriceOnProperty), orEmpty(inv.QuantityOnProperty), orEmpty(inv.SKUOnProperty)
		sh.Listings[id] = &ListingState{ListingID: id, Title: "Sandbox listing", State: "active", Inventory: inv}
	})
	return id
}

// Inventory is the listing's inventory as the sandbox keeps it (deleted products too).
func (s *Sandbox) Inventory(shopID, listing int64) (inv Inventory, ok bool) {
	s.With(strconv.FormatInt(shopID, 10), func(sh *Shop) {
		if l := sh.Listings[listing]; l != nil {
			b, _ := json.Marshal(l.Inventory)
			ok = json.Unmarshal(b, &inv) == nil
		}
	})
	return inv, ok
}

// Quantity is what the product of sku shows (its first offering's quantity), and whether
// the shop lists it.
func (s *Sandbox) Quantity(shopID int64, sku string) (q int64, ok bool) {
	s.With(strconv.FormatInt(shopID, 10), func(sh *Shop) {
		if p := sh.product(sku); p != nil && len(p.Offerings) > 0 {
			q, ok = p.Offerings[0].Quantity, true
		}
	})
	return q, ok
}

// product is the product of sku on a listing of the shop, and its listing (nil for none;
// the lock held).
func (sh *Shop) product(sku string) *Product {
	p, _ := sh.productOf(sku)
	return p
}

// productOf is the product of sku and its listing id (nil for none; the lock held).
func (sh *Shop) productOf(sku string) (*Product, int64) {
	for _, id := range slices.Sorted(maps.Keys(sh.Listings)) {
		inv := &sh.Listings[id].Inventory
		for i := range inv.Products {
			if p := &inv.Products[i]; p.SKU == sku && !p.IsDeleted {
				return p, id
			}
		}
	}
	return nil, 0
}

// unitCents is the price of every unit a placed receipt sells, in cents.
const unitCents = 1999

// Line is a line of a receipt to place: quantity of sku at unit cents.
type Line struct {
	SKU      string
	Quantity int64
	Cents    int64
}

// PlaceReceipt places a paid receipt of the lines in currency on the shop, created and
// changed at, and returns its id.
func (s *Sandbox) PlaceReceipt(shopID int64, lines []Line, currency string, at time.Time) (id int64) {
	s.Change(strconv.FormatInt(shopID, 10), func(sh *Shop) { id = sh.place(lines, currency, at).ReceiptID })
	return id
}

// place adds a paid receipt of the lines in currency, created and changed at (the lock held).
func (sh *Shop) place(lines []Line, currency string, at time.Time) *Receipt {
	ts := at.Unix()
	money := func(cents int64) Money { return Money{Amount: cents, Divisor: 100, CurrencyCode: currency} }
	state := "CA"
	rc := &Receipt{ReceiptID: sh.next(), SellerUserID: sh.UserID, BuyerUserID: 1, BuyerEmail: "buyer@example.com",
		Name: "Sandbox Buyer", FirstLine: "1 Test Street", City: "San Jose", State: &state, Zip: "95125", CountryISO: "US",
		Status: "paid", PaymentMethod: "cc", IsPaid: true, CreateTimestamp: ts, CreatedTimestamp: ts,
		Shipments: []Shipment{}, Refunds: []Refund{}}
	touch(rc, ts)
	var total int64
	for _, l := range lines {
		title, sku := "Sandbox item "+l.SKU, l.SKU
		t := Transaction{TransactionID: sh.next(), Title: &title, SellerUserID: sh.UserID, BuyerUserID: 1, CreatedTimestamp: ts,
			PaidTimestamp: &ts, Quantity: l.Quantity, ReceiptID: rc.ReceiptID, TransactionType: "listing", SKU: &sku,
			Price: money(l.Cents), ShippingCost: money(0)}
		if p, listing := sh.productOf(l.SKU); p != nil {
			t.ListingID, t.ProductID = &listing, &p.ProductID
		}
		rc.Transactions = append(rc.Transactions, t)
		total += l.Cents * l.Quantity
	}
	rc.TotalPrice, rc.Subtotal, rc.Grandtotal = money(total), money(total), money(total)
	sh.Payments[rc.ReceiptID] = &Payment{PaymentID: sh.next(), BuyerUserID: 1, ShopID: sh.ShopID, ReceiptID: rc.ReceiptID,
		AmountGross: money(total), Currency: currency, Status: "settled", CreatedTimestamp: ts, UpdatedTimestamp: ts,
		PaymentAdjustments: []PaymentAdjustment{}}
	rc.TotalShippingCost, rc.TotalTaxCost, rc.TotalVATCost, rc.DiscountAmt, rc.GiftWrapPrice = money(0), money(0), money(0), money(0), money(0)
	sh.Receipts[rc.ReceiptID] = rc
	return rc
}

// ChangeReceipt changes a receipt of the shop with f and makes now its last change; false
// when there is none.
func (s *Sandbox) ChangeReceipt(shopID, receipt int64, f func(*Receipt)) (ok bool) {
	s.Change(strconv.FormatInt(shopID, 10), func(sh *Shop) {
		if rc := sh.Receipts[receipt]; rc != nil {
			f(rc)
			touch(rc, time.Now().Unix())
			ok = true
		}
	})
	return ok
}

// Cancel cancels the receipt as the seller would on Etsy (status canceled).
func Cancel(rc *Receipt) { rc.Status = "canceled" }

// RefundAll refunds the whole receipt (status fully refunded, one refund of its total).
func RefundAll(rc *Receipt) {
	rc.Status = "fully refunded"
	rc.Refunds = append(rc.Refunds, Refund{Amount: rc.Grandtotal, CreatedTimestamp: time.Now().Unix()})
}

// RefundUnits refunds units of the receipt's line (from 1) as the seller would on Etsy, which
// cancels no line: a payment adjustment of the units' price on the line's transaction, the
// receipt partially refunded; false when there is no such receipt or line.
func (s *Sandbox) RefundUnits(shopID, receipt int64, line int, units int64) (ok bool) {
	s.Change(strconv.FormatInt(shopID, 10), func(sh *Shop) {
		if rc := sh.Receipts[receipt]; rc != nil && line >= 1 && line <= len(rc.Transactions) {
			sh.refund(rc, line-1, units)
			ok = true
		}
	})
	return ok
}

// refund refunds units of the receipt's i-th transaction (the lock held).
func (sh *Shop) refund(rc *Receipt, i int, units int64) {
	t := rc.Transactions[i]
	p := sh.Payments[rc.ReceiptID]
	if p == nil {
		p = &Payment{PaymentID: sh.next(), ShopID: sh.ShopID, ReceiptID: rc.ReceiptID, AmountGross: rc.Grandtotal,
			Currency: rc.Grandtotal.CurrencyCode, Status: "settled", PaymentAdjustments: []PaymentAdjustment{}}
		sh.Payments[rc.ReceiptID] = p
	}
	now := time.Now().Unix()
	amount := units * t.Price.Amount
	adj := PaymentAdjustment{PaymentAdjustmentID: sh.next(), PaymentID: p.PaymentID, Status: "success", IsSuccess: true,
		ReasonCode: "other", TotalAdjustmentAmount: amount, CreatedTimestamp: now}
	adj.PaymentAdjustmentItems = []PaymentAdjustmentItem{{PaymentAdjustmentID: adj.PaymentAdjustmentID, PaymentAdjustmentItemID: sh.next(),
		AdjustmentType: "REFUND", Amount: amount, ShopAmount: amount, TransactionID: t.TransactionID}}
	p.PaymentAdjustments = append(p.PaymentAdjustments, adj)
	p.UpdatedTimestamp = now
	rc.Status = "partially refunded"
	rc.Refunds = append(rc.Refunds, Refund{Amount: Money{Amount: amount, Divisor: t.Price.Divisor, CurrencyCode: t.Price.CurrencyCode}, CreatedTimestamp: now})
	touch(rc, now)
}

// Shipments are the shipments posted on the shop's receipt.
func (s *Sandbox) Shipments(shopID, receipt int64) (out []Shipment) {
	s.With(strconv.FormatInt(shopID, 10), func(sh *Shop) {
		if rc := sh.Receipts[receipt]; rc != nil {
			out = slices.Clone(rc.Shipments)
		}
	})
	return out
}

// genericOrder is the receipt as the admin order endpoints answer it: a GenericOrder of its
// id, its last change, and the receipt as the document.
func genericOrder(rc *Receipt) sandbox.GenericOrder {
	return sandbox.NewGenericOrder(strconv.FormatInt(rc.ReceiptID, 10), time.Unix(rc.UpdatedTimestamp, 0), rc)
}

// placeOrder places a paid receipt on the shop of in.Lines lines of in.Quantity of in.SKU,
// in in.Currency, shipped whole (USPS) when asked (the lock held).
func (sh *Shop) placeOrder(in sandbox.OrderRequest) (*Receipt, error) {
	lines := make([]Line, in.Lines)
	for i := range lines {
		lines[i] = Line{SKU: in.SKU, Quantity: int64(in.Quantity), Cents: unitCents}
	}
	rc := sh.place(lines, in.Currency, time.Now())
	if in.Shipped {
		ship(rc, 0, len(rc.Transactions))
	}
	return rc, nil
}

// ship ships the transactions from i to j of the receipt (the seller's own tools: USPS and a
// tracking code of the receipt's), the receipt shipped once all are.
func ship(rc *Receipt, i, j int) {
	now := time.Now().Unix()
	for k := i; k < j; k++ {
		rc.Transactions[k].ShippedTimestamp = &now
	}
	rc.Shipments = append(rc.Shipments, Shipment{ShipmentNotificationTimestamp: now, CarrierName: "usps",
		TrackingCode: "9400" + strconv.FormatInt(rc.ReceiptID, 10) + strconv.Itoa(len(rc.Shipments))})
	rc.IsShipped = !slices.ContainsFunc(rc.Transactions, func(t Transaction) bool { return t.ShippedTimestamp == nil })
	if rc.IsShipped {
		rc.Status = "completed"
	}
	touch(rc, now)
}

// refundedUnits is how many units of the receipt's i-th transaction its refunds paid back
// (the lock held).
func (sh *Shop) refundedUnits(rc *Receipt, i int) int64 {
	t := rc.Transactions[i]
	p := sh.Payments[rc.ReceiptID]
	if p == nil || t.Price.Amount <= 0 {
		return 0
	}
	var sum int64
	for _, a := range p.PaymentAdjustments {
		for _, it := range a.PaymentAdjustmentItems {
			if it.TransactionID == t.TransactionID {
				sum += it.Amount
			}
		}
	}
	return sum / t.Price.Amount
}

// firstInStock is the SKU of the first product, by listing, in stock, else the first ("" for
// none; the lock held).
func (sh *Shop) firstInStock() string {
	first := ""
	for _, id := range slices.Sorted(maps.Keys(sh.Listings)) {
		for _, p := range sh.Listings[id].Inventory.Products {
			if p.IsDeleted || p.SKU == "" {
				continue
			}
			if first == "" {
				first = p.SKU
			}
			if len(p.Offerings) > 0 && p.Offerings[0].Quantity > 0 {
				return p.SKU
			}
		}
	}
	return first
}

// changeLine changes a line of a receipt of the shop (the lock held). Etsy ships lines whole
// and cancels whole receipts: shipping a line ships all of it (its transaction's
// shipped_timestamp, one more shipment; part of a line is 409); cancelling every unit of a
// receipt of one line not shipped cancels the receipt; cancelling fewer is what a seller
// does on Etsy by refunding them (a payment adjustment of the line's transaction,
// RefundUnits).
func (sh *Shop) changeLine(in sandbox.LineChange) (*Receipt, error) {
	id, _ := strconv.ParseInt(in.OrderID, 10, 64)
	rc := sh.Receipts[id]
	switch {
	case rc == nil:
		return nil, sandbox.Refuse(http.StatusNotFound, "no receipt "+in.OrderID+" on the shop of channel "+in.ChannelUUID)
	case in.Line > len(rc.Transactions):
		return nil, sandbox.Refuse(http.StatusBadRequest, "the receipt has no line "+strconv.Itoa(in.Line))
	}
	t := rc.Transactions[in.Line-1]
	switch {
	case in.Shipped > 0 && (t.ShippedTimestamp != nil || int64(in.Shipped) != t.Quantity || in.Cancelled > 0):
		return nil, sandbox.Refuse(http.StatusConflict, "Etsy ships a line whole, once")
	case in.Shipped > 0:
		ship(rc, in.Line-1, in.Line)
	case rc.Status == "canceled" || t.ShippedTimestamp != nil || int64(in.Cancelled) > t.Quantity-sh.refundedUnits(rc, in.Line-1):
		return nil, sandbox.Refuse(http.StatusConflict, "more than is left of the line")
	case len(rc.Transactions) == 1 && int64(in.Cancelled) == t.Quantity:
		Cancel(rc)
		touch(rc, time.Now().Unix())
	default:
		sh.refund(rc, in.Line-1, int64(in.Cancelled))
	}
	return rc, nil
}
