package ebay

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/wire"
)

// ordersPath is getOrders.
const ordersPath = "/sell/fulfillment/v1/order"

// PageSize is the orders asked for per page (getOrders' most).
const PageSize = 200

// TimeFormat is how eBay writes times (UTC, milliseconds).
const TimeFormat = "2006-01-02T15:04:05.000Z"

// PollOrders implements connectors.Connector: getOrders filtered by lastmodifieddate from
// q.Since, PageSize at a time, with fieldGroups=TAX_BREAKDOWN (so that totals hold the tax
// eBay collects and remits); the page token is the next offset. An order with lines eBay says
// are shipped (in part) has its shipping fulfillments read (getShippingFulfillments) for the
// quantities, carriers and tracking numbers of its lines.
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
		"limit": {strconv.Itoa(PageSize)}, "offset": {strconv.Itoa(offset)}, "fieldGroups": {"TAX_BREAKDOWN"}}
	resp, err := call(ctx, s, OpFulfillment, http.MethodGet, ordersPath+"?"+v.Encode(), nil)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	page, err := parseOrders(s.Channel, offset, resp.Body, func(orderID string) ([]ShippingFulfillment, error) {
		return fulfillments(ctx, s, "/sell/fulfillment/v1/order/"+url.PathEscape(orderID)+"/shipping_fulfillment")
	})
	for i, reason := range page.Refused {
		page.Refused[i] = s.Clean(reason)
		slog.WarnContext(ctx, "ebay: order not imported", "account", s.Account, "channel", s.Channel, "error", page.Refused[i])
	}
	return page, err
}

// parseOrders reads a getOrders answer asked from offset into the channel's order documents,
// reading the shipping fulfillments of an order with shipped lines through shipped (nil:
// none are read). An unreadable answer, or fulfillments that cannot be read, fail the whole
// page: nothing of it is imported, and the poll is tried again from the same cursor. An order
// it cannot map is left out, its reason in the page's Refused; the others are imported.
func parseOrders(channel string, offset int, body []byte, shipped func(orderID string) ([]ShippingFulfillment, error)) (connectors.OrderPage, error) {
	var page OrderPage
	if err := json.Unmarshal(body, &page); err != nil {
		return connectors.OrderPage{}, fmt.Errorf("ebay orders: unreadable answer: %w", err)
	}
	out := connectors.OrderPage{Orders: make([]connectors.Order, 0, len(page.Orders))}
	for i, o := range page.Orders {
		var fs []ShippingFulfillment
		if shipped != nil && o.OrderID != "" && hasShipped(o) {
			var err error
			if fs, err = shipped(o.OrderID); err != nil {
				return connectors.OrderPage{}, err
			}
		}
		doc, at, err := document(channel, o, fs)
		if err != nil {
			out.Refused = append(out.Refused, fmt.Sprintf("ebay orders: order %d of the page (offset %d): %v", i, offset, err))
			continue
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

// hasShipped reports whether eBay says a line of the order is shipped, in part or whole.
func hasShipped(o Order) bool {
	for _, li := range o.LineItems {
		if li.LineItemFulfillmentStatus == "IN_PROGRESS" || li.LineItemFulfillmentStatus == "FULFILLED" {
			return true
		}
	}
	return len(o.FulfillmentHrefs) > 0
}

// document maps an eBay order and its shipping fulfillments to an order import document
// (docs/orders.md) and returns its last change.
func document(channel string, o Order, fs []ShippingFulfillment) (json.RawMessage, time.Time, error) {
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
	d := wire.OrderDocument{ChannelUUID: channel, DisplayRef: o.OrderID, OrderedAt: o.CreationDate, CustomerNotes: o.BuyerCheckoutNotes}
	if ps, ok := paymentStatus[o.OrderPaymentStatus]; ok {
		d.PaymentStatus = ps
		if ps == "all" {
			d.PaidAt = paidAt(o)
		}
	}
	cancelled := false
	if cs := o.CancelStatus; cs != nil && cs.CancelState == "CANCELED" {
		d.CancelledAt, cancelled = cmp.Or(cs.CancelledDate, o.LastModifiedDate), true
	}
	totals(&d, o.PricingSummary)
	shipTo(&d, o.FulfillmentStartInstructions)
	d.Items = make([]wire.OrderItem, len(o.LineItems))
	for i, li := range o.LineItems {
		if li.LineItemID == "" || li.Quantity < 1 {
			return nil, time.Time{}, fmt.Errorf("order %s: line %d has no lineItemId or quantity", o.OrderID, i)
		}
		sku := cmp.Or(li.SKU, li.LegacyItemID)
		if sku == "" {
			return nil, time.Time{}, fmt.Errorf("order %s: line %s has neither sku nor legacyItemId", o.OrderID, li.LineItemID)
		}
		d.Items[i] = wire.OrderItem{OrderItemRef: li.LineItemID, SKU: sku, Quantity: li.Quantity, Title: li.Title,
			Status: li.LineItemFulfillmentStatus, Price: money(li.LineItemCost), Total: money(li.Total), Tax: lineTax(li)}
		lineState(&d.Items[i], li, fs, cancelled)
	}
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
func shipTo(d *wire.OrderDocument, in []FulfillmentStartInstruction) {
	for _, fi := range in {
		st := fi.ShippingStep
		if st == nil {
			continue
		}
		d.RequestedShippingService, d.RequestedShippingProvider = st.ShippingServiceCode, st.ShippingCarrierCode
		d.DeliverByDate = fi.MaxEstimatedDeliveryDate
		if c := st.ShipTo; c != nil {
			d.ShippingContactName, d.ShippingCompanyName, d.ShippingEmail = c.FullName, c.CompanyName, c.Email
			if c.PrimaryPhone != nil {
				d.ShippingPhoneNumber = c.PrimaryPhone.PhoneNumber
			}
			if a := c.ContactAddress; a != nil {
				d.ShippingAddress1, d.ShippingAddress2, d.ShippingCity = a.AddressLine1, a.AddressLine2, a.City
				d.ShippingStateRegion, d.ShippingPostalCode, d.ShippingCountryCode = a.StateOrProvince, a.PostalCode, a.CountryCode
			}
		}
		return
	}
}

// money is an amount's value (unsigned: eBay writes discounts negative), "" for none.
func money(a *Amount) wire.Amount {
	if a == nil {
		return ""
	}
	return wire.Amount(strings.TrimPrefix(a.Value, "-"))
}

// lineTax is the sum of a line's taxes ("" when it has none, or one is not a two-decimal
// amount).
func lineTax(li LineItem) wire.Amount {
	var sum int64
	for _, t := range li.Taxes {
		c, ok := cents(t.Amount)
		if !ok {
			return ""
		}
		sum += c
	}
	if len(li.Taxes) == 0 {
		return ""
	}
	return wire.Cents(sum)
}

// lineState sets how much of the line eBay says is shipped and cancelled, and the carrier and
// tracking number of its last shipping fulfillment: shipped is what the order's fulfillments
// ship of the line (all of it, less what is cancelled, for a line FULFILLED without them);
// cancelled is all that is not shipped of an order eBay cancelled, else the units the line's
// refunds pay back of what is not shipped (eBay cancels part of an order by refunding its
// lines), never more than is left.
func lineState(it *wire.OrderItem, li LineItem, fs []ShippingFulfillment, cancelled bool) {
	for _, f := range fs {
		for _, ref := range f.LineItems {
			if ref.LineItemID == li.LineItemID {
				it.QuantityShipped += ref.Quantity
				it.CarrierName, it.TrackingNumber = f.ShippingCarrierCode, f.ShipmentTrackingNumber
			}
		}
	}
	it.QuantityShipped = min(it.QuantityShipped, li.Quantity)
	left := li.Quantity - it.QuantityShipped
	switch {
	case cancelled:
		it.QuantityCancelled = left
	case li.LineItemFulfillmentStatus == "FULFILLED" && it.QuantityShipped == 0:
		it.QuantityShipped = li.Quantity
	default:
		it.QuantityCancelled = min(left, refunded(li))
	}
}

// refunded is how many units of the line its refunds pay back: their sum over the unit
// price (lineItemCost over quantity), rounded down.
func refunded(li LineItem) int64 {
	cost, ok := cents(li.LineItemCost)
	if !ok || cost <= 0 || len(li.Refunds) == 0 {
		return 0
	}
	var sum int64
	for _, r := range li.Refunds {
		c, ok := cents(r.Amount)
		if !ok {
			return 0
		}
		sum += abs(c)
	}
	return sum * li.Quantity / cost
}
