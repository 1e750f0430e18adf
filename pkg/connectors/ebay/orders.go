package ebay

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// ordersPath is getOrders.
const ordersPath = "/sell/fulfillment/v1/order"

// PageSize is the orders asked for per page (getOrders' most).
const PageSize = 200

// TimeFormat is how eBay writes times (UTC, milliseconds).
const TimeFormat = "2006-01-02T15:04:05.000Z"

// PollOrders implements connectors.Connector: getOrders filtered by lastmodifieddate from
// q.Since, PageSize at a time; the page token is the next offset.
func (c *connector) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	offset := 0
	if q.Page != "" {
		n, err := strconv.Atoi(q.Page)
		if err != nil || n < 0 {
			return connectors.OrderPage{}, fmt.Errorf("ebay orders: page token %q is not an offset", q.Page)
		}
		offset = n
	}
	v := url.Values{"filter": {"lastmodifieddate:[" + q.Since.UTC().Format(TimeFormat) + "..]"},
		"limit": {strconv.Itoa(PageSize)}, "offset": {strconv.Itoa(offset)}}
	resp, err := call(ctx, s, OpFulfillment, http.MethodGet, ordersPath+"?"+v.Encode(), nil)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	return parseOrders(s.Channel, offset, resp.Body)
}

// parseOrders reads a getOrders answer asked from offset into the channel's order documents.
// Any order it cannot map fails the whole page: nothing of it is imported, and the poll is
// tried again from the same cursor.
func parseOrders(channel string, offset int, body []byte) (connectors.OrderPage, error) {
	var page OrderPage
	if err := json.Unmarshal(body, &page); err != nil {
		return connectors.OrderPage{}, fmt.Errorf("ebay orders: unreadable answer: %w", err)
	}
	out := connectors.OrderPage{Orders: make([]connectors.Order, 0, len(page.Orders))}
	for i, o := range page.Orders {
		doc, at, err := document(channel, o)
		if err != nil {
			return connectors.OrderPage{}, fmt.Errorf("ebay orders: order %d of the page (offset %d): %w", i, offset, err)
		}
		out.Orders = append(out.Orders, connectors.Order{Ref: o.OrderID, UpdatedAt: at, Document: doc})
	}
	if next := offset + len(page.Orders); len(page.Orders) > 0 && next < page.Total {
		out.Next = strconv.Itoa(next)
	}
	return out, nil
}

// paymentStatus maps orderPaymentStatus to the import document's payment_status: a paid order
// (refunded ones too: a refund is no unpaid order) is all, a pending or failed one none.
var paymentStatus = map[string]string{
	"PAID": "all", "PARTIALLY_REFUNDED": "all", "FULLY_REFUNDED": "all", "PENDING": "none", "FAILED": "none",
}

// document maps an eBay order to an order import document (docs/orders.md) and returns its
// last change.
func document(channel string, o Order) (json.RawMessage, time.Time, error) {
	if o.OrderID == "" {
		return nil, time.Time{}, errors.New("no orderId")
	}
	at, err := time.Parse(time.RFC3339Nano, o.LastModifiedDate)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("order %s: lastModifiedDate %q is not a time", o.OrderID, o.LastModifiedDate)
	}
	if _, err := time.Parse(time.RFC3339Nano, o.CreationDate); err != nil {
		return nil, time.Time{}, fmt.Errorf("order %s: creationDate %q is not a time", o.OrderID, o.CreationDate)
	}
	if len(o.LineItems) == 0 {
		return nil, time.Time{}, fmt.Errorf("order %s: no lineItems", o.OrderID)
	}
	d := map[string]any{"channel_uuid": channel, "display_ref": o.OrderID, "ordered_at": o.CreationDate}
	if ps, ok := paymentStatus[o.OrderPaymentStatus]; ok {
		d["payment_status"] = ps
		if ps == "all" {
			d["paid_at"] = paidAt(o)
		}
	}
	if cs := o.CancelStatus; cs != nil && cs.CancelState == "CANCELED" {
		d["cancelled_at"] = cmp.Or(cs.CancelledDate, o.LastModifiedDate)
	}
	if p := o.PricingSummary; p != nil {
		money(d, "subtotal", p.PriceSubtotal)
		money(d, "discount", p.PriceDiscount)
		money(d, "shipping_cost", p.DeliveryCost)
		money(d, "tax", p.Tax)
		money(d, "total", p.Total)
	}
	if o.BuyerCheckoutNotes != "" {
		d["customer_notes"] = o.BuyerCheckoutNotes
	}
	shipTo(d, o.FulfillmentStartInstructions)
	items := make([]map[string]any, len(o.LineItems))
	for i, li := range o.LineItems {
		if li.LineItemID == "" || li.Quantity < 1 {
			return nil, time.Time{}, fmt.Errorf("order %s: line %d has no lineItemId or quantity", o.OrderID, i)
		}
		sku := cmp.Or(li.SKU, li.LegacyItemID)
		if sku == "" {
			return nil, time.Time{}, fmt.Errorf("order %s: line %s has neither sku nor legacyItemId", o.OrderID, li.LineItemID)
		}
		it := map[string]any{"order_item_ref": li.LineItemID, "sku": sku, "quantity": li.Quantity}
		if li.Title != "" {
			it["title"] = li.Title
		}
		if li.LineItemFulfillmentStatus != "" {
			it["status"] = li.LineItemFulfillmentStatus
		}
		money(it, "price", li.LineItemCost)
		money(it, "total", li.Total)
		items[i] = it
	}
	d["items"] = items
	doc, err := json.Marshal(d)
	return doc, at, err
}

// paidAt is the time of the order's first payment, else its last change.
func paidAt(o Order) string {
	if o.PaymentSummary != nil {
		for _, p := range o.PaymentSummary.Payments {
			if p.PaymentDate != "" {
				return p.PaymentDate
			}
		}
	}
	return o.LastModifiedDate
}

// shipTo sets the ship-to, service and delivery date of the first shipping instruction.
func shipTo(d map[string]any, in []FulfillmentStartInstruction) {
	for _, fi := range in {
		st := fi.ShippingStep
		if st == nil {
			continue
		}
		set(d, "requested_shipping_service", st.ShippingServiceCode)
		set(d, "requested_shipping_provider", st.ShippingCarrierCode)
		set(d, "deliver_by_date", fi.MaxEstimatedDeliveryDate)
		if c := st.ShipTo; c != nil {
			set(d, "shipping_contact_name", c.FullName)
			set(d, "shipping_company_name", c.CompanyName)
			set(d, "shipping_email", c.Email)
			if c.PrimaryPhone != nil {
				set(d, "shipping_phone_number", c.PrimaryPhone.PhoneNumber)
			}
			if a := c.ContactAddress; a != nil {
				set(d, "shipping_address_1", a.AddressLine1)
				set(d, "shipping_address_2", a.AddressLine2)
				set(d, "shipping_city", a.City)
				set(d, "shipping_state_region", a.StateOrProvince)
				set(d, "shipping_postal_code", a.PostalCode)
				set(d, "shipping_country_code", a.CountryCode)
			}
		}
		return
	}
}

// money sets key to an amount's value (unsigned: eBay writes discounts negative).
func money(d map[string]any, key string, a *Amount) {
	if a != nil {
		set(d, key, strings.TrimPrefix(a.Value, "-"))
	}
}

// set sets key to v unless v is empty.
func set(d map[string]any, key, v string) {
	if v != "" {
		d[key] = v
	}
}
