package orders

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/money"
)

// Status values of sb_status, sb_payment_status and shipment_status.
const (
	StatusOpen      = "open"
	StatusCompleted = "completed"
	StatusCancelled = "cancelled"

	All     = "all"
	Partial = "partial"
	None    = "none"
)

// Order is an order as stored and as returned (the Order schema of
// docs/openapi.yaml): every field is present, null where unknown.
type Order struct {
	DisplayRef             string `json:"display_ref" dynamodbav:"display_ref"`
	Seq                    int64  `json:"sb_order_seq" dynamodbav:"seq"`
	ChannelUUID            string `json:"channel_uuid" dynamodbav:"channel_uuid"`
	ChannelTypeDisplayName string `json:"channel_type_display_name" dynamodbav:"channel_type_display_name"`
	ChannelName            string `json:"channel_name" dynamodbav:"channel_name"`

	ShippingContactName *string `json:"shipping_contact_name" dynamodbav:"shipping_contact_name"`
	ShippingEmail       *string `json:"shipping_email" dynamodbav:"shipping_email"`
	ShippingCompanyName *string `json:"shipping_company_name" dynamodbav:"shipping_company_name"`
	ShippingAddress1    *string `json:"shipping_address_1" dynamodbav:"shipping_address_1"`
	ShippingAddress2    *string `json:"shipping_address_2" dynamodbav:"shipping_address_2"`
	ShippingAddress3    *string `json:"shipping_address_3" dynamodbav:"shipping_address_3"`
	ShippingCity        *string `json:"shipping_city" dynamodbav:"shipping_city"`
	ShippingStateRegion *string `json:"shipping_state_region" dynamodbav:"shipping_state_region"`
	ShippingPostalCode  *string `json:"shipping_postal_code" dynamodbav:"shipping_postal_code"`
	ShippingCountryCode *string `json:"shipping_country_code" dynamodbav:"shipping_country_code"`
	ShippingPhoneNumber *string `json:"shipping_phone_number" dynamodbav:"shipping_phone_number"`

	// Currency is the ISO 4217 code of the order's amounts; null when the
	// channel names none.
	Currency     *string       `json:"currency" dynamodbav:"currency"`
	Subtotal     *money.Amount `json:"subtotal" dynamodbav:"subtotal"`
	Discount     *money.Amount `json:"discount" dynamodbav:"discount"`
	Tax          *money.Amount `json:"tax" dynamodbav:"tax"`
	ShippingCost *money.Amount `json:"shipping_cost" dynamodbav:"shipping_cost"`
	Total        *money.Amount `json:"total" dynamodbav:"total"`

	PaymentStatus  string `json:"sb_payment_status" dynamodbav:"sb_payment_status"`
	ShipmentStatus string `json:"shipment_status" dynamodbav:"shipment_status"`
	Status         string `json:"sb_status" dynamodbav:"sb_status"`

	OrderedAt   string  `json:"ordered_at" dynamodbav:"ordered_at"`
	PaidAt      *string `json:"paid_at" dynamodbav:"paid_at"`
	ShippedAt   *string `json:"shipped_at" dynamodbav:"shipped_at"`
	CancelledAt *string `json:"cancelled_at" dynamodbav:"cancelled_at"`
	// UpdatedAt is when what GET returns of the order last changed (set by
	// every save that changes it; see touch).
	// Null only on orders saved before it existed.
	UpdatedAt *string `json:"updated_at" dynamodbav:"updated_at"`

	BillingAddress1    *string `json:"billing_address_1" dynamodbav:"billing_address_1"`
	BillingAddress2    *string `json:"billing_address_2" dynamodbav:"billing_address_2"`
	BillingAddress3    *string `json:"billing_address_3" dynamodbav:"billing_address_3"`
	BillingCity        *string `json:"billing_city" dynamodbav:"billing_city"`
	BillingStateRegion *string `json:"billing_state_region" dynamodbav:"billing_state_region"`
	BillingPostalCode  *string `json:"billing_postal_code" dynamodbav:"billing_postal_code"`
	BillingCountry     *string `json:"billing_country" dynamodbav:"billing_country"`
	BillingCountryCode *string `json:"billing_country_code" dynamodbav:"billing_country_code"`
	BillingPhoneNumber *string `json:"billing_phone_number" dynamodbav:"billing_phone_number"`
	BillingContactName *string `json:"billing_contact_name" dynamodbav:"billing_contact_name"`
	BillingEmail       *string `json:"billing_email" dynamodbav:"billing_email"`
	BillingCompanyName *string `json:"billing_company_name" dynamodbav:"billing_company_name"`

	RequestedShippingService  *string `json:"requested_shipping_service" dynamodbav:"requested_shipping_service"`
	RequestedShippingProvider *string `json:"requested_shipping_provider" dynamodbav:"requested_shipping_provider"`
	RequestedShippingSpecial  *string `json:"requested_shipping_special" dynamodbav:"requested_shipping_special"`
	MerchantNotes             *string `json:"merchant_notes" dynamodbav:"merchant_notes"`
	CustomerNotes             *string `json:"customer_notes" dynamodbav:"customer_notes"`
	ShipByDate                *string `json:"ship_by_date" dynamodbav:"ship_by_date"`
	DeliverByDate             *string `json:"deliver_by_date" dynamodbav:"deliver_by_date"`

	Items []Item `json:"items" dynamodbav:"items"`

	// Version counts the order's writes; every write is conditioned on it.
	Version int64 `json:"-" dynamodbav:"ver"`
}

// Item is an order line (the OrderItem schema of docs/openapi.yaml).
type Item struct {
	OrderItemRef      string        `json:"order_item_ref" dynamodbav:"order_item_ref"`
	Quantity          int           `json:"quantity" dynamodbav:"quantity"`
	Title             *string       `json:"title" dynamodbav:"title"`
	SKU               string        `json:"sku" dynamodbav:"sku"`
	InventorySKU      *string       `json:"inventory_sku" dynamodbav:"inventory_sku"`
	UnitPrice         *money.Amount `json:"unit_price" dynamodbav:"unit_price"`
	Price             *money.Amount `json:"price" dynamodbav:"price"`
	Total             *money.Amount `json:"total" dynamodbav:"total"`
	QuantityFulfilled int           `json:"quantity_fulfilled" dynamodbav:"quantity_fulfilled"`
	Tax               *money.Amount `json:"tax" dynamodbav:"tax"`
	CancelledAt       *string       `json:"cancelled_at" dynamodbav:"cancelled_at"`
	Status            *string       `json:"status" dynamodbav:"status"`

	// Warehouses is where the line is allocated or was shipped from,
	// computed for output from Alloc and Shipped.
	Warehouses []WarehouseQty `json:"warehouses" dynamodbav:"-"`
	// FulfillmentQuantity is set only in fulfillments: the quantity
	// allocated at the requested warehouse.
	FulfillmentQuantity *int `json:"fulfillment_quantity,omitempty" dynamodbav:"-"`

	// QuantityCancelled is how much of the line the channel cancelled
	// (of what was not shipped); CarrierName and TrackingNumber are the
	// channel's own shipment of the line, when it gives them
	// (channelstate.go). Stored, not shown by the API.
	QuantityCancelled int     `json:"-" dynamodbav:"quantity_cancelled,omitempty"`
	CarrierName       *string `json:"-" dynamodbav:"carrier_name,omitempty"`
	TrackingNumber    *string `json:"-" dynamodbav:"tracking_number,omitempty"`

	// Alloc is the quantity reserved per warehouse, in allocation order.
	Alloc []WarehouseQty `json:"-" dynamodbav:"alloc"`
	// Shipped is the quantity shipped per warehouse.
	Shipped []WarehouseQty `json:"-" dynamodbav:"shipped"`
}

// WarehouseQty is a quantity at one warehouse.
type WarehouseQty struct {
	WarehouseUUID string `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Quantity      int    `json:"quantity" dynamodbav:"quantity"`
}

// Allocated is the line's quantity reserved in warehouses.
func (it Item) Allocated() int { return sumQty(it.Alloc) }

// Unassigned is the quantity of an open, uncancelled line neither allocated
// nor shipped nor cancelled on the channel; 0 for a cancelled line.
func (it Item) Unassigned() int {
	return max(0, it.Left()-it.Allocated())
}

// Left is the quantity of the line still to ship: neither shipped nor
// cancelled (0 for a cancelled line).
func (it Item) Left() int {
	if it.CancelledAt != nil {
		return 0
	}
	return it.Quantity - it.QuantityCancelled - it.QuantityFulfilled
}

// setFields overlays a document's line fields on it, keeping what the API
// does not show (its allocations, shipments and state on the channel).
func (it *Item) setFields(f map[string]any) error {
	keep := *it
	if err := overlay(it, f); err != nil {
		return err
	}
	it.Alloc, it.Shipped = keep.Alloc, keep.Shipped
	it.QuantityCancelled, it.CarrierName, it.TrackingNumber = keep.QuantityCancelled, keep.CarrierName, keep.TrackingNumber
	return nil
}

// AllocatedAt is the line's quantity reserved at warehouse wh.
func (it Item) AllocatedAt(wh string) int { return qtyAt(it.Alloc, wh) }

// sumQty is the total of qs.
func sumQty(qs []WarehouseQty) int {
	n := 0
	for _, q := range qs {
		n += q.Quantity
	}
	return n
}

// qtyAt is the quantity of qs at wh.
func qtyAt(qs []WarehouseQty, wh string) int {
	for _, q := range qs {
		if q.WarehouseUUID == wh {
			return q.Quantity
		}
	}
	return 0
}

// AddQty returns qs with n (possibly negative) added at wh, dropping
// entries that reach 0; qs itself is not changed. It is how a line's Alloc
// and Shipped change.
func AddQty(qs []WarehouseQty, wh string, n int) []WarehouseQty {
	out := slices.Clone(qs)
	for i := range out {
		if out[i].WarehouseUUID == wh {
			out[i].Quantity += n
			if out[i].Quantity <= 0 {
				out = slices.Delete(out, i, i+1)
			}
			return out
		}
	}
	if n > 0 {
		out = append(out, WarehouseQty{WarehouseUUID: wh, Quantity: n})
	}
	return out
}

// forOutput fills the computed Warehouses of every line: allocated plus
// shipped per warehouse, in order of first appearance.
func (o *Order) forOutput() {
	for i := range o.Items {
		it := &o.Items[i]
		ws := []WarehouseQty{}
		for _, q := range append(slices.Clone(it.Shipped), it.Alloc...) {
			ws = AddQty(ws, q.WarehouseUUID, q.Quantity)
		}
		it.Warehouses = ws
	}
}

// Clone returns a deep copy of o, so a new state can be computed from the
// current one (and both given to a save, such as SaveShipment).
func (o Order) Clone() Order {
	c := o
	c.Items = make([]Item, len(o.Items))
	for i, it := range o.Items {
		it.Alloc = slices.Clone(it.Alloc)
		it.Shipped = slices.Clone(it.Shipped)
		c.Items[i] = it
	}
	return c
}

// ParseSeq reads an sb_order_seq: a positive integer (a JSON number or
// string).
func ParseSeq(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1 || n > 999_999_999_999 {
		return 0, false
	}
	return n, true
}

// touch sets next's updated_at: now when next is new or what GET returns of
// it differs from cur's, else cur's (a save that changes only what the API
// does not show, such as where units are reserved, is no change).
func touch(cur, next *Order, now time.Time) {
	if cur != nil && sameView(cur, next) {
		next.UpdatedAt = cur.UpdatedAt
		return
	}
	at := isotime.Format(now)
	next.UpdatedAt = &at
}

// sameView reports whether a and b look the same through the API, their
// updated_at aside.
func sameView(a, b *Order) bool {
	view := func(o *Order) []byte {
		c := o.Clone()
		c.UpdatedAt = nil
		c.forOutput()
		j, err := json.Marshal(c)
		if err != nil {
			return nil
		}
		return j
	}
	va, vb := view(a), view(b)
	return va != nil && bytes.Equal(va, vb)
}
