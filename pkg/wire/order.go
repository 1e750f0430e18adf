package wire

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// OrderDocument is an order import document (docs/orders.md, "Import"): what a connector
// sends the inbox for an order, and what the orders domain validates (pkg/orders' field
// lists agree with these keys, a test holds it, and the inbox refuses any other key). A
// field left empty is left out of the JSON, so a re-import keeps what the order has; times
// are ISO 8601 (any offset), the payment status all, partial or none.
type OrderDocument struct {
	ChannelUUID   string `json:"channel_uuid"`
	DisplayRef    string `json:"display_ref"`
	OrderedAt     string `json:"ordered_at"`
	PaymentStatus string `json:"payment_status,omitempty"`
	PaidAt        string `json:"paid_at,omitempty"`
	CancelledAt   string `json:"cancelled_at,omitempty"`
	ShipByDate    string `json:"ship_by_date,omitempty"`
	DeliverByDate string `json:"deliver_by_date,omitempty"`

	// Currency is the ISO 4217 code of every amount of the order ("USD"); "" when the
	// channel names none.
	Currency     string `json:"currency,omitempty"`
	Subtotal     Amount `json:"subtotal,omitempty"`
	Discount     Amount `json:"discount,omitempty"`
	Tax          Amount `json:"tax,omitempty"`
	ShippingCost Amount `json:"shipping_cost,omitempty"`
	Total        Amount `json:"total,omitempty"`

	ShippingContactName string `json:"shipping_contact_name,omitempty"`
	ShippingEmail       string `json:"shipping_email,omitempty"`
	ShippingCompanyName string `json:"shipping_company_name,omitempty"`
	ShippingAddress1    string `json:"shipping_address_1,omitempty"`
	ShippingAddress2    string `json:"shipping_address_2,omitempty"`
	ShippingAddress3    string `json:"shipping_address_3,omitempty"`
	ShippingCity        string `json:"shipping_city,omitempty"`
	ShippingStateRegion string `json:"shipping_state_region,omitempty"`
	ShippingPostalCode  string `json:"shipping_postal_code,omitempty"`
	ShippingCountryCode string `json:"shipping_country_code,omitempty"`
	ShippingPhoneNumber string `json:"shipping_phone_number,omitempty"`

	BillingContactName string `json:"billing_contact_name,omitempty"`
	BillingEmail       string `json:"billing_email,omitempty"`
	BillingCompanyName string `json:"billing_company_name,omitempty"`
	BillingAddress1    string `json:"billing_address_1,omitempty"`
	BillingAddress2    string `json:"billing_address_2,omitempty"`
	BillingAddress3    string `json:"billing_address_3,omitempty"`
	BillingCity        string `json:"billing_city,omitempty"`
	BillingStateRegion string `json:"billing_state_region,omitempty"`
	BillingPostalCode  string `json:"billing_postal_code,omitempty"`
	BillingCountry     string `json:"billing_country,omitempty"`
	BillingCountryCode string `json:"billing_country_code,omitempty"`
	BillingPhoneNumber string `json:"billing_phone_number,omitempty"`

	RequestedShippingService  string `json:"requested_shipping_service,omitempty"`
	RequestedShippingProvider string `json:"requested_shipping_provider,omitempty"`
	RequestedShippingSpecial  string `json:"requested_shipping_special,omitempty"`
	MerchantNotes             string `json:"merchant_notes,omitempty"`
	CustomerNotes             string `json:"customer_notes,omitempty"`

	Items []OrderItem `json:"items"`
}

// OrderItem is a line of an OrderDocument: order_item_ref is unique in the order, sku the
// channel's SKU. QuantityShipped and QuantityCancelled are how much of the line the channel
// itself says is shipped (by the seller's own tools, the marketplace's fulfillment or a
// label bought there) and cancelled, each at most Quantity together; CarrierName and
// TrackingNumber are the channel's shipment of the line when it gives them
// (docs/orders.md, "Lines shipped or cancelled on the channel").
type OrderItem struct {
	OrderItemRef string `json:"order_item_ref"`
	SKU          string `json:"sku"`
	Quantity     int64  `json:"quantity"`
	Title        string `json:"title,omitempty"`
	Status       string `json:"status,omitempty"`
	UnitPrice    Amount `json:"unit_price,omitempty"`
	Price        Amount `json:"price,omitempty"`
	Total        Amount `json:"total,omitempty"`
	Tax          Amount `json:"tax,omitempty"`
	CancelledAt  string `json:"cancelled_at,omitempty"`

	QuantityShipped   int64  `json:"quantity_shipped,omitempty"`
	QuantityCancelled int64  `json:"quantity_cancelled,omitempty"`
	CarrierName       string `json:"carrier_name,omitempty"`
	TrackingNumber    string `json:"tracking_number,omitempty"`
}

// Amount is a money amount in decimal notation ("12.50", as the channels write them), sent
// as a JSON number with its digits as they are; "" is none (left out).
type Amount string

// MarshalJSON writes the amount as a JSON number; an amount that is not one is an error.
func (a Amount) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(json.Number(a))
	if err != nil {
		return nil, fmt.Errorf("amount %q is not a decimal number", string(a))
	}
	return b, nil
}

// UnmarshalJSON reads a JSON number (or a string holding one) with its digits as they are,
// so a document read back (a sandbox changing an order it placed) keeps its amounts.
func (a *Amount) UnmarshalJSON(b []byte) error {
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("amount %s is not a decimal number", b)
	}
	*a = Amount(n)
	return nil
}

// Cents is the amount of c hundredths ("12.50" for 1250).
func Cents(c int64) Amount {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return Amount(sign + strconv.FormatInt(c/100, 10) + "." + fmt.Sprintf("%02d", c%100))
}
