package walmart

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/money"
)

// Open returns a started sandbox whose state is kept in file (sandbox.OpenSaved).
func Open(file string) (*Sandbox, error) { return sandbox.OpenSaved(file, newSandbox) }

// AddSeller opens a seller account for the client id and its secret (the seller's API key).
func (s *Sandbox) AddSeller(clientID, secret string) {
	s.Add(clientID, sandbox.Account{ClientID: clientID, Secret: secret}, func() *Seller {
		return &Seller{Orders: map[string]*PurchaseOrder{}, Items: map[string]int64{}, Feeds: map[string]*Feed{},
			Acks: map[string]int{}, Shipments: map[string]int{}}
	})
}

// AddItem lists sku for the seller, with quantity.
func (s *Sandbox) AddItem(clientID, sku string, quantity int64) {
	s.Change(clientID, func(sl *Seller) { sl.Items[sku] = quantity })
}

// Quantity is the seller's quantity of sku, and whether the seller has the item.
func (s *Sandbox) Quantity(clientID, sku string) (q int64, ok bool) {
	s.With(clientID, func(sl *Seller) { q, ok = sl.Items[sku] })
	return q, ok
}

// PutOrder places or replaces an order of the seller.
func (s *Sandbox) PutOrder(clientID string, o PurchaseOrder) {
	s.Change(clientID, func(sl *Seller) { sl.Orders[o.PurchaseOrderID] = &o })
}

// Order is the seller's purchase order po as getAnOrder answers it (false: none).
func (s *Sandbox) Order(clientID, po string) (o PurchaseOrder, ok bool) {
	s.With(clientID, func(sl *Seller) {
		if p := sl.Orders[po]; p != nil {
			b, _ := json.Marshal(p)
			ok = json.Unmarshal(b, &o) == nil
		}
	})
	return o, ok
}

// Acks is how many acknowledgeOrders the seller's order po took.
func (s *Sandbox) Acks(clientID, po string) (n int) {
	s.With(clientID, func(sl *Seller) { n = sl.Acks[po] })
	return n
}

// Shipments is how many shippingUpdates the seller's order po took.
func (s *Sandbox) Shipments(clientID, po string) (n int) {
	s.With(clientID, func(sl *Seller) { n = sl.Shipments[po] })
	return n
}

// unitCents is the price of every unit the sandbox sells, and the shipping of an order's
// first line, in cents; taxCents the tax of a unit.
const (
	unitCents     = 1999
	taxCents      = 160
	shippingCents = 499
)

// NewOrder is a purchase order po of lines lines, each quantity of sku at 19.99 a unit (with
// 1.60 of tax a unit) in currency, the first line with 4.99 of shipping, Created, placed and
// last changed at.
func NewOrder(po, sku string, quantity int64, lines int, currency string, at time.Time) PurchaseOrder {
	ms := at.UnixMilli()
	o := PurchaseOrder{PurchaseOrderID: po, CustomerOrderID: "5" + po[1:], CustomerEmailID: "buyer-" + po + "@relay.walmart.com",
		OrderDate: ms, ShippingInfo: ShippingInfo{Phone: "4155550100", EstimatedShipDate: at.Add(48 * time.Hour).UnixMilli(),
			EstimatedDeliveryDate: at.Add(120 * time.Hour).UnixMilli(), MethodCode: "Standard",
			PostalAddress: PostalAddress{Name: "Sandbox Buyer", Address1: "1 Test Street", City: "Bentonville", State: "AR",
				PostalCode: "72712", Country: "USA", AddressType: "RESIDENTIAL"}}}
	cents := func(c int64) MoneyTypeV2 { return MoneyTypeV2{Currency: currency, Amount: money.Cents(c)} }
	for i := range lines {
		l := OrderLine{LineNumber: strconv.Itoa(i + 1), Item: Item{ProductName: "Sandbox item " + sku, SKU: sku},
			OrderLineQuantity: QuantityType{UnitOfMeasurement: "EACH", Amount: strconv.FormatInt(quantity, 10)}, StatusDate: ms}
		l.Charges.Charge = []Charge{{ChargeType: "PRODUCT", ChargeName: "ItemPrice", ChargeAmount: cents(unitCents * quantity),
			Tax: &TaxType{TaxName: "Tax1", TaxAmount: cents(taxCents * quantity)}}}
		if i == 0 {
			l.Charges.Charge = append(l.Charges.Charge, Charge{ChargeType: "SHIPPING", ChargeName: "Shipping", ChargeAmount: cents(shippingCents),
				Tax: &TaxType{TaxName: "Tax1", TaxAmount: cents(0)}})
		}
		l.OrderLineStatuses.OrderLineStatus = []OrderLineStatus{{Status: "Created",
			StatusQuantity: QuantityType{UnitOfMeasurement: "EACH", Amount: strconv.FormatInt(quantity, 10)}}}
		o.OrderLines.OrderLine = append(o.OrderLines.OrderLine, l)
	}
	return o
}

// nextPO is a new purchase order id of the seller's: 13 digits, as Walmart's (the lock
// held).
func (sl *Seller) nextPO() string {
	sl.Seq++
	return fmt.Sprintf("%013d", 1800000000000+sl.Seq)
}

// genericOrder is the order as the admin order endpoints answer it: a sandbox.GenericOrder
// whose document is the purchase order.
func genericOrder(o *PurchaseOrder) sandbox.GenericOrder {
	return sandbox.NewGenericOrder(o.PurchaseOrderID, time.UnixMilli(lastModified(o)), o)
}

// placeOrder places a new Created order of the seller's of in.Lines lines of in.SKU in
// in.Currency, shipped whole already (UPS, as the seller's own tools would ship it) when
// in.Shipped says so (the lock held).
func (sl *Seller) placeOrder(in sandbox.OrderRequest) (*PurchaseOrder, error) {
	o := NewOrder(sl.nextPO(), in.SKU, int64(in.Quantity), in.Lines, in.Currency, time.Now())
	if in.Shipped {
		for i := range o.OrderLines.OrderLine {
			l := &o.OrderLines.OrderLine[i]
			move(l, "Created", "Acknowledged", int64(in.Quantity), nil)
			ship(l, int64(in.Quantity), &TrackingInfoType{ShipDateTime: o.OrderDate, CarrierName: CarrierNameType{Carrier: "UPS"},
				MethodCode: "Standard", TrackingNumber: "1Z" + o.PurchaseOrderID + l.LineNumber})
		}
	}
	sl.Orders[o.PurchaseOrderID] = &o
	return &o, nil
}

// changeLine ships more units of a line of the seller's order (USPS with a tracking number,
// as Seller Center would) or cancels them (Cancelled, as Walmart shows a line the seller or
// the customer cancelled); the line's statusDate becomes now. 404 for an unknown order or
// line, 409 for more than is left (the lock held).
func (sl *Seller) changeLine(in sandbox.LineChange) (*PurchaseOrder, error) {
	o := sl.Orders[in.OrderID]
	if o == nil || in.Line > len(o.OrderLines.OrderLine) {
		return nil, sandbox.Refuse(http.StatusNotFound, "no such order or line")
	}
	l := &o.OrderLines.OrderLine[in.Line-1]
	if left := open(l); int64(in.Shipped+in.Cancelled) > left {
		return nil, sandbox.Refuse(http.StatusConflict, fmt.Sprintf("line %d has %d units left", in.Line, left))
	}
	if in.Cancelled > 0 {
		n := int64(in.Cancelled)
		created := min(units(l)["Created"], n)
		if created > 0 {
			move(l, "Created", "Cancelled", created, nil)
		}
		if n-created > 0 {
			move(l, "Acknowledged", "Cancelled", n-created, nil)
		}
	}
	if in.Shipped > 0 {
		ship(l, int64(in.Shipped), &TrackingInfoType{ShipDateTime: time.Now().UnixMilli(), CarrierName: CarrierNameType{Carrier: "USPS"},
			MethodCode: "Standard", TrackingNumber: fmt.Sprintf("9400%s%s%d", o.PurchaseOrderID, l.LineNumber, len(l.OrderLineStatuses.OrderLineStatus))})
	}
	l.StatusDate = time.Now().UnixMilli()
	return o, nil
}
