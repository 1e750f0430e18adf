package walmart

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/money"
)

// Open returns a started sandbox whose state is kept in file (sandbox.OpenSaved).
func Open(file string) (*Sandbox, error) {
	s := newSandbox()
	if err := sandbox.OpenSaved(s.Server, s.Registry, file); err != nil {
		return nil, err
	}
	return s, nil
}

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

// firstInStock is the first SKU, in order, that has a quantity, else the first ("" for none).
func firstInStock(items map[string]int64) string {
	skus := slices.Sorted(maps.Keys(items))
	for _, sku := range skus {
		if items[sku] > 0 {
			return sku
		}
	}
	if len(skus) > 0 {
		return skus[0]
	}
	return ""
}

// placeOrder serves sandbox.AdminOrdersPath for the seller bound to the channel: a new
// Created order of Lines lines (the SKU asked, else the first item in stock) in Currency,
// shipped whole already (UPS, as the seller's own tools would ship it) when Shipped says so,
// answered as a sandbox.GenericOrder whose document is the purchase order.
func (s *Sandbox) placeOrder(w http.ResponseWriter, r *http.Request) {
	in, ok := sandbox.DecodeOrderRequest(w, r)
	if !ok {
		return
	}
	s.Lock()
	defer s.Unlock()
	sl, ok := s.Bound(in.ChannelUUID)
	if !ok {
		sandbox.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "no seller of this sandbox is channel " + in.ChannelUUID})
		return
	}
	if in.SKU == "" {
		in.SKU = firstInStock(sl.Items)
	}
	if in.SKU == "" {
		sandbox.WriteJSON(w, http.StatusConflict, map[string]string{"error": "the seller of channel " + in.ChannelUUID + " has no item yet: name a sku"})
		return
	}
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
	s.Save()
	answerAdmin(w, http.StatusCreated, &o)
}

// answerAdmin answers status with the order as a sandbox.GenericOrder.
func answerAdmin(w http.ResponseWriter, status int, o *PurchaseOrder) {
	doc, _ := json.Marshal(o)
	sandbox.WriteJSON(w, status, sandbox.GenericOrder{ID: o.PurchaseOrderID, UpdatedAt: time.UnixMilli(lastModified(o)).UTC(), Document: doc})
}

// changeLine serves sandbox.AdminLinesPath: the seller ships more units of a line (USPS with
// a tracking number, as Seller Center would) or cancels them (Cancelled, as Walmart shows a
// line the seller or the customer cancelled); the line's statusDate becomes now. 400 for a
// bad body, 404 for an unknown channel, order or line, 409 for more than is left.
func (s *Sandbox) changeLine(w http.ResponseWriter, r *http.Request) {
	var in sandbox.LineChange
	if json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in) != nil || in.ChannelUUID == "" || in.OrderID == "" ||
		in.Line < 1 || in.Shipped < 0 || in.Cancelled < 0 || in.Shipped+in.Cancelled == 0 {
		sandbox.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "channel_uuid, order_id, line (from 1) and shipped or cancelled (0 or more, not both 0) required"})
		return
	}
	s.Lock()
	defer s.Unlock()
	sl, ok := s.Bound(in.ChannelUUID)
	if !ok || sl.Orders[in.OrderID] == nil || in.Line > len(sl.Orders[in.OrderID].OrderLines.OrderLine) {
		sandbox.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "no such channel, order or line"})
		return
	}
	o := sl.Orders[in.OrderID]
	l := &o.OrderLines.OrderLine[in.Line-1]
	if left := open(l); int64(in.Shipped+in.Cancelled) > left {
		sandbox.WriteJSON(w, http.StatusConflict, map[string]string{"error": fmt.Sprintf("line %d has %d units left", in.Line, left)})
		return
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
	s.Save()
	answerAdmin(w, http.StatusOK, o)
}
