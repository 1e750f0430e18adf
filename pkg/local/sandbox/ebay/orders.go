package ebay

import (
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// unitCents is the price of every unit the sandbox sells, in cents.
const unitCents = 1999

// amount is an Amount of cents in currency.
func amount(cents int64, currency string) *Amount {
	return &Amount{Value: big.NewRat(cents, 100).FloatString(2), Currency: currency}
}

// plus is a + cents (a's currency; nil is 0).
func plus(a *Amount, cents int64, currency string) *Amount {
	v := new(big.Rat)
	if a != nil {
		v.SetString(a.Value)
		currency = a.Currency
	}
	v.Add(v, big.NewRat(cents, 100))
	return &Amount{Value: v.FloatString(2), Currency: currency}
}

// NewOrder is an order of one line: quantity of sku at 19.99 each in USD, paid, not
// shipped, shipping to a sandbox buyer, created and modified at.
func NewOrder(id, sku string, quantity int64, at time.Time) Order {
	return newOrder(id, sku, quantity, 1, "USD", at)
}

// newOrder is an order of lines lines, each quantity of sku at 19.99 each in currency, paid,
// not shipped, shipping to a sandbox buyer, created and modified at.
func newOrder(id, sku string, quantity int64, lines int, currency string, at time.Time) Order {
	ts := at.UTC().Format(TimeFormat)
	o := Order{OrderID: id, CreationDate: ts, LastModifiedDate: ts,
		OrderFulfillmentStatus: "NOT_STARTED", OrderPaymentStatus: "PAID",
		CancelStatus:   &CancelStatus{CancelState: "NONE_REQUESTED"},
		PricingSummary: &PricingSummary{PriceSubtotal: amount(unitCents*quantity*int64(lines), currency), Total: amount(unitCents*quantity*int64(lines), currency)},
		PaymentSummary: &PaymentSummary{Payments: []Payment{{PaymentDate: ts, PaymentStatus: "PAID"}}},
		FulfillmentStartInstructions: []FulfillmentStartInstruction{{ShippingStep: &ShippingStep{
			ShippingCarrierCode: "USPS", ShippingServiceCode: "USPSPriority",
			ShipTo: &ExtendedContact{FullName: "Sandbox Buyer", ContactAddress: &Address{
				AddressLine1: "1 Test Street", City: "San Jose", StateOrProvince: "CA", PostalCode: "95125", CountryCode: "US"}}}}},
	}
	for i := range lines {
		line := amount(unitCents*quantity, currency)
		o.LineItems = append(o.LineItems, LineItem{LineItemID: fmt.Sprintf("%s-%d", id, i+1), SKU: sku, Title: "Sandbox item " + sku,
			Quantity: quantity, LineItemCost: line, Total: line, LineItemFulfillmentStatus: "NOT_STARTED",
			Taxes: []Tax{}, Refunds: []LineItemRefund{}})
	}
	return o
}

// WithCollectedTax adds to the order's first line a US sales tax of taxCents that eBay
// collects and remits, as getOrders shows it with fieldGroups=TAX_BREAKDOWN: in the line's
// ebayCollectAndRemitTaxes and taxes (STATE_SALES_TAX), its total, and the order's tax and
// total. Without TAX_BREAKDOWN the sandbox leaves it out of the totals, as eBay does.
func WithCollectedTax(o *Order, taxCents int64) {
	li := &o.LineItems[0]
	cur := li.Total.Currency
	li.EbayCollectAndRemitTaxes = append(li.EbayCollectAndRemitTaxes, EbayCollectAndRemitTax{
		Amount: amount(taxCents, cur), TaxType: "STATE_SALES_TAX", CollectionMethod: "NET"})
	li.Taxes = append(li.Taxes, Tax{Amount: amount(taxCents, cur), TaxType: "STATE_SALES_TAX"})
	li.Total = plus(li.Total, taxCents, cur)
	o.PricingSummary.Tax = plus(o.PricingSummary.Tax, taxCents, cur)
	o.PricingSummary.Total = plus(o.PricingSummary.Total, taxCents, cur)
	o.EbayCollectAndRemitTax = true
}

// withoutBreakdown is the order as getOrders answers it without fieldGroups=TAX_BREAKDOWN:
// the tax eBay collects and remits is in no total, and taxes have no taxType.
func withoutBreakdown(o Order) Order {
	o.LineItems = slices.Clone(o.LineItems)
	all := new(big.Rat)
	for i, li := range o.LineItems {
		sum := new(big.Rat)
		for _, t := range li.EbayCollectAndRemitTaxes {
			if v, ok := new(big.Rat).SetString(t.Amount.Value); ok {
				sum.Add(sum, v)
			}
		}
		taxes := make([]Tax, len(li.Taxes))
		for j, t := range li.Taxes {
			taxes[j] = Tax{Amount: t.Amount}
		}
		o.LineItems[i].Taxes = taxes
		o.LineItems[i].Total = minus(li.Total, sum)
		all.Add(all, sum)
	}
	if p := o.PricingSummary; p != nil && all.Sign() != 0 {
		ps := *p
		ps.Tax, ps.Total = minus(p.Tax, all), minus(p.Total, all)
		o.PricingSummary = &ps
	}
	return o
}

// minus is a - v (nil stays nil).
func minus(a *Amount, v *big.Rat) *Amount {
	if a == nil {
		return nil
	}
	x, _ := new(big.Rat).SetString(a.Value)
	return &Amount{Value: new(big.Rat).Sub(x, v).FloatString(2), Currency: a.Currency}
}

// genericOrder is the order as the admin order endpoints answer it: a sandbox.GenericOrder
// whose document is the eBay order.
func genericOrder(o *Order) sandbox.GenericOrder {
	at, _ := time.Parse(time.RFC3339Nano, o.LastModifiedDate)
	return sandbox.NewGenericOrder(o.OrderID, at, o)
}

// placeOrder places a new order of the seller's of in.Lines lines of in.SKU in in.Currency,
// placed already shipped whole when in.Shipped says so (the lock held).
func (sl *Seller) placeOrder(in sandbox.OrderRequest) (*Order, error) {
	now := time.Now()
	o := newOrder(fmt.Sprintf("%02d-%05d-%05d", 10+len(sl.Orders)%90, now.Unix()%100000, len(sl.Orders)+1), in.SKU,
		int64(in.Quantity), in.Lines, in.Currency, now)
	sl.Orders[o.OrderID] = &o
	if in.Shipped {
		f := ShippingFulfillmentDetails{ShippingCarrierCode: "USPS", TrackingNumber: "9400" + o.OrderID[3:8] + fmt.Sprint(len(sl.Fulfillments[o.OrderID])+1), ShippedDate: Now()}
		for _, li := range o.LineItems {
			f.LineItems = append(f.LineItems, LineItemReference{LineItemID: li.LineItemID, Quantity: li.Quantity})
		}
		sl.addFulfillment(&o, f)
	}
	return &o, nil
}

// changeLine ships more units of a line of the seller's order (a shipping fulfillment with
// USPS and a tracking number) or cancels them, as Seller Hub does by refunding the line (a
// LineItemRefund of the units' price); an order left with nothing to ship and nothing
// shipped is cancelled whole (cancelStatus CANCELED). 404 for an unknown order or line, 409
// for more than is left (the lock held).
func (sl *Seller) changeLine(in sandbox.LineChange) (*Order, error) {
	o := sl.Orders[in.OrderID]
	if o == nil || in.Line > len(o.LineItems) {
		return nil, sandbox.Refuse(http.StatusNotFound, "no such order or line")
	}
	li := &o.LineItems[in.Line-1]
	if left := li.Quantity - sl.shipped(o.OrderID)[li.LineItemID] - refundedUnits(*li); int64(in.Shipped+in.Cancelled) > left {
		return nil, sandbox.Refuse(http.StatusConflict, fmt.Sprintf("line %d has %d units left", in.Line, left))
	}
	if in.Cancelled > 0 {
		li.Refunds = append(li.Refunds, LineItemRefund{Amount: amount(unitCents*int64(in.Cancelled), li.LineItemCost.Currency), RefundDate: Now()})
		o.LastModifiedDate = Now()
		sl.cancelIfDone(o)
	}
	if in.Shipped > 0 {
		sl.addFulfillment(o, ShippingFulfillmentDetails{ShippingCarrierCode: "USPS", ShippedDate: Now(),
			TrackingNumber: fmt.Sprintf("9400%s%d", o.OrderID[3:8], len(sl.Fulfillments[o.OrderID])+1),
			LineItems:      []LineItemReference{{LineItemID: li.LineItemID, Quantity: int64(in.Shipped)}}})
	}
	return o, nil
}

// refundedUnits is how many units of the line its refunds paid back.
func refundedUnits(li LineItem) int64 {
	var n int64
	for _, r := range li.Refunds {
		if v, ok := new(big.Rat).SetString(r.Amount.Value); ok {
			units := v.Mul(v, big.NewRat(100, unitCents))
			n += new(big.Int).Quo(units.Num(), units.Denom()).Int64()
		}
	}
	return n
}

// cancelIfDone cancels the order whole when every unit of it is refunded (the lock held).
func (sl *Seller) cancelIfDone(o *Order) {
	shipped := sl.shipped(o.OrderID)
	for _, li := range o.LineItems {
		if shipped[li.LineItemID] > 0 || refundedUnits(li) < li.Quantity {
			return
		}
	}
	o.CancelStatus = &CancelStatus{CancelState: "CANCELED", CancelledDate: Now()}
}
