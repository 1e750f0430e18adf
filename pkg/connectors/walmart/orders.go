package walmart

import (
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
	"github.com/multisell/multisell/pkg/money"
	"github.com/multisell/multisell/pkg/wire"
)

// ordersPath is getAllOrders.
const ordersPath = "/v3/orders"

// PageSize is the orders asked for per page (Walmart's default; its most is 200).
const PageSize = 100

// TimeFormat is how the connector writes Walmart's times in queries and documents (UTC,
// milliseconds; Walmart states times as epoch milliseconds).
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Walmart's line statuses (OrderLineStatusType.status).
const (
	StatusCreated      = "Created"
	StatusAcknowledged = "Acknowledged"
	StatusShipped      = "Shipped"
	StatusDelivered    = "Delivered"
	StatusCancelled    = "Cancelled"
	StatusRefund       = "Refund"
)

// PollOrders implements connectors.Connector: getAllOrders by lastModifiedStartDate from
// q.Since, PageSize at a time; the page token is Walmart's nextCursor (the query of the next
// page, which pins the window's end at the first page's time, so orders changed while the
// pages are read, by an acknowledgement among others, come at the next poll rather than
// twice in this one).
func (c *connector) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	query, err := pageQuery(q)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	resp, err := call(ctx, s, OpOrders, http.MethodGet, ordersPath+"?"+query, nil)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	page, err := parseOrders(s.Channel, resp.Body)
	for i, reason := range page.Refused {
		page.Refused[i] = s.Clean(reason)
		slog.WarnContext(ctx, "walmart: order not imported", "account", s.Account, "channel", s.Channel, "error", page.Refused[i])
	}
	return page, err
}

// pageQuery is the query of the page q asks for: the first page's filter, or Walmart's
// nextCursor read as a query (and written again, so a cursor carries nothing but query
// parameters).
func pageQuery(q connectors.OrdersQuery) (string, error) {
	if q.Page == "" {
		return url.Values{"lastModifiedStartDate": {q.Since.UTC().Format(TimeFormat)},
			"limit": {strconv.Itoa(PageSize)}}.Encode(), nil
	}
	v, err := url.ParseQuery(strings.TrimPrefix(q.Page, "?"))
	if err != nil || !strings.HasPrefix(q.Page, "?") || len(v) == 0 {
		return "", fmt.Errorf("walmart orders: page token %q is not Walmart's nextCursor", q.Page)
	}
	return v.Encode(), nil
}

// parseOrders reads a getAllOrders answer into the channel's order documents. An unreadable
// answer fails the page: nothing of it is imported, and the poll is tried again from the same
// cursor. An order it cannot map is left out, its reason in the page's Refused.
func parseOrders(channel string, body []byte) (connectors.OrderPage, error) {
	var page struct {
		List struct {
			Meta struct {
				NextCursor string `json:"nextCursor"`
			} `json:"meta"`
			Elements struct {
				Order []json.RawMessage `json:"order"`
			} `json:"elements"`
		} `json:"list"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return connectors.OrderPage{}, fmt.Errorf("walmart orders: unreadable answer: %w", err)
	}
	orders := page.List.Elements.Order
	out := connectors.OrderPage{Orders: make([]connectors.Order, 0, len(orders))}
	for i, raw := range orders {
		var o Order
		if err := json.Unmarshal(raw, &o); err != nil {
			out.Refused = append(out.Refused, fmt.Sprintf("walmart orders: order %d of the page: %v", i, err))
			continue
		}
		doc, at, err := document(channel, o)
		if err != nil {
			out.Refused = append(out.Refused, fmt.Sprintf("walmart orders: order %d of the page: %v", i, err))
			continue
		}
		out.Orders = append(out.Orders, connectors.Order{Ref: o.PurchaseOrderID, UpdatedAt: at, Document: doc})
	}
	if len(orders) > 0 {
		out.Next = page.List.Meta.NextCursor
	}
	return out, nil
}

// document maps a Walmart purchase order to an order import document (docs/orders.md) and
// returns its last change: the latest statusDate of its lines (Walmart states no time of the
// order's own), at least its orderDate.
func document(channel string, o Order) (json.RawMessage, time.Time, error) {
	if o.PurchaseOrderID == "" {
		return nil, time.Time{}, errors.New("no purchaseOrderId")
	}
	if o.OrderDate <= 0 {
		return nil, time.Time{}, fmt.Errorf("order %s: no orderDate", o.PurchaseOrderID)
	}
	lines := o.OrderLines.OrderLine
	if len(lines) == 0 {
		return nil, time.Time{}, fmt.Errorf("order %s: no orderLines", o.PurchaseOrderID)
	}
	ordered := time.UnixMilli(o.OrderDate).UTC()
	d := wire.OrderDocument{ChannelUUID: channel, DisplayRef: o.PurchaseOrderID, OrderedAt: ordered.Format(TimeFormat),
		PaymentStatus: "all", PaidAt: ordered.Format(TimeFormat), ShippingEmail: o.CustomerEmailID}
	shipTo(&d, o.ShippingInfo)
	var sum lineMoney
	last, cancelled := ordered, true
	d.Items = make([]wire.OrderItem, len(lines))
	for i, l := range lines {
		it, m, err := item(o.PurchaseOrderID, l)
		if err != nil {
			return nil, time.Time{}, err
		}
		if d.Currency == "" {
			d.Currency = m.currency
		}
		if m.currency != "" && m.currency != d.Currency {
			return nil, time.Time{}, fmt.Errorf("order %s: charges in %s and %s", o.PurchaseOrderID, d.Currency, m.currency)
		}
		sum.add(m)
		d.Items[i] = it
		if at := time.UnixMilli(l.StatusDate).UTC(); at.After(last) {
			last = at
		}
		cancelled = cancelled && it.QuantityCancelled == it.Quantity
	}
	if cancelled {
		d.CancelledAt = last.Format(TimeFormat)
	}
	d.Subtotal, d.Discount, d.ShippingCost, d.Tax, d.Total = amount(sum.price), amount(sum.discount), amount(sum.shipping), amount(sum.tax), amount(sum.total())
	doc, err := json.Marshal(d)
	return doc, last, err
}

// shipTo sets the ship-to and the requested shipping of an order.
func shipTo(d *wire.OrderDocument, si *ShippingInfo) {
	if si == nil {
		return
	}
	a := si.PostalAddress
	d.ShippingContactName, d.ShippingAddress1, d.ShippingAddress2 = a.Name, a.Address1, a.Address2
	d.ShippingCity, d.ShippingStateRegion, d.ShippingPostalCode = a.City, a.State, a.PostalCode
	d.ShippingCountryCode, d.ShippingPhoneNumber = countryCode(a.Country), si.Phone
	d.RequestedShippingService = si.MethodCode
	if si.EstimatedShipDate > 0 {
		d.ShipByDate = time.UnixMilli(si.EstimatedShipDate).UTC().Format(TimeFormat)
	}
	if si.EstimatedDeliveryDate > 0 {
		d.DeliverByDate = time.UnixMilli(si.EstimatedDeliveryDate).UTC().Format(TimeFormat)
	}
}

// countryCode is the ISO 3166 alpha-2 code of Walmart's country ("USA" is US); "" for one
// it does not know.
func countryCode(c string) string {
	switch c = strings.ToUpper(strings.TrimSpace(c)); {
	case c == "USA":
		return "US"
	case len(c) == 2:
		return c
	}
	return ""
}

// item maps an order line to a document line with its quantities per status, and returns
// its money.
func item(po string, l OrderLine) (wire.OrderItem, lineMoney, error) {
	qty, err := strconv.ParseInt(strings.TrimSpace(l.OrderLineQuantity.Amount), 10, 64)
	if l.LineNumber == "" || l.Item.SKU == "" || err != nil || qty < 1 {
		return wire.OrderItem{}, lineMoney{}, fmt.Errorf("order %s: line %q has no lineNumber, sku or quantity", po, l.LineNumber)
	}
	m := charges(l.Charges.Charge)
	it := wire.OrderItem{OrderItemRef: l.LineNumber, SKU: l.Item.SKU, Quantity: qty, Title: l.Item.ProductName,
		Price: amount(m.price), Tax: amount(m.tax), Total: amount(m.total())}
	if unit := m.price / money.Amount(qty); unit*money.Amount(qty) == m.price {
		it.UnitPrice = amount(unit)
	}
	lineState(&it, l.OrderLineStatuses.OrderLineStatus)
	return it, m, nil
}

// lineState sets a line's quantities shipped and cancelled from Walmart's statuses (units
// Shipped, Delivered or Refund, which Walmart gives only to units shipped, are shipped;
// Cancelled ones cancelled), the carrier and tracking number of its last shipment, and its
// status: Created while some units are (the order awaits its acknowledgement), else the
// status of the units left to ship, else of the last status Walmart lists.
func lineState(it *wire.OrderItem, statuses []LineStatus) {
	open := ""
	for _, st := range statuses {
		n, err := strconv.ParseInt(strings.TrimSpace(st.StatusQuantity.Amount), 10, 64)
		if err != nil || n < 0 {
			n = 0
		}
		switch st.Status {
		case StatusShipped, StatusDelivered, StatusRefund:
			it.QuantityShipped += n
			if t := st.TrackingInfo; t != nil {
				it.CarrierName = t.CarrierName.Carrier
				if it.CarrierName == "" {
					it.CarrierName = t.CarrierName.OtherCarrier
				}
				it.TrackingNumber = t.TrackingNumber
			}
		case StatusCancelled:
			it.QuantityCancelled += n
		case StatusCreated:
			open = StatusCreated
		case StatusAcknowledged:
			if open == "" {
				open = StatusAcknowledged
			}
		}
		it.Status = st.Status
	}
	if open != "" {
		it.Status = open
	}
	it.QuantityShipped = min(it.QuantityShipped, it.Quantity)
	it.QuantityCancelled = min(it.QuantityCancelled, it.Quantity-it.QuantityShipped)
}

// lineMoney is a line's (or an order's) money as docs/connectors.md ("Walmart", money)
// defines it from Walmart's charges.
type lineMoney struct {
	currency                       string
	price, discount, shipping, tax money.Amount
}

// charges sums a line's charges: a PRODUCT charge (ItemPrice) or any charge of another type
// but SHIPPING is the line's price, a SHIPPING charge its shipping, a negative charge of any
// type a discount, and every charge's tax its tax.
func charges(cs []Charge) lineMoney {
	var m lineMoney
	for _, c := range cs {
		if m.currency == "" {
			m.currency = c.ChargeAmount.Currency
		}
		switch a := c.ChargeAmount.Amount; {
		case a < 0:
			m.discount -= a
		case strings.EqualFold(c.ChargeType, "SHIPPING"):
			m.shipping += a
		default:
			m.price += a
		}
		if c.Tax != nil {
			m.tax += c.Tax.TaxAmount.Amount
		}
	}
	return m
}

// add adds a line's money to an order's.
func (m *lineMoney) add(l lineMoney) {
	m.price += l.price
	m.discount += l.discount
	m.shipping += l.shipping
	m.tax += l.tax
}

// total is price - discount + shipping + tax.
func (m lineMoney) total() money.Amount { return m.price - m.discount + m.shipping + m.tax }

// amount is a document amount of a.
func amount(a money.Amount) wire.Amount { return wire.Amount(a.String()) }

// Acknowledge implements connectors.Acknowledger: each order of the page the inbox took
// with units still Created and none shipped is acknowledged (acknowledgeOrders), so an order
// is acknowledged once: once acknowledged its lines are Acknowledged, and Walmart's rule is
// that orders with lines shipped or cancelled are not acknowledged again. An order Walmart
// refuses to acknowledge (a 4xx: cancelled meanwhile, ...) is logged and left; any other
// failure (a limit, a refusal of the token, a 5xx) is the error, and the next poll reads
// the page again.
func (c *connector) Acknowledge(ctx context.Context, s *connectors.Session, orders []connectors.Order) error {
	for _, o := range orders {
		if !awaitsAck(o.Document) {
			continue
		}
		_, err := call(ctx, s, OpAcknowledge, http.MethodPost, ordersPath+"/"+url.PathEscape(o.Ref)+"/acknowledge", nil)
		var ae *apiError
		switch {
		case errors.As(err, &ae) && ae.Status/100 == 4 && ae.Status != http.StatusUnauthorized:
			slog.WarnContext(ctx, "walmart: order not acknowledged", "account", s.Account, "channel", s.Channel,
				"order", o.Ref, "error", s.Clean(err.Error()))
		case err != nil:
			return err
		}
	}
	return nil
}

// awaitsAck reports whether an order's document has units Created and none shipped.
func awaitsAck(doc json.RawMessage) bool {
	var d wire.OrderDocument
	if json.Unmarshal(doc, &d) != nil {
		return false
	}
	created := false
	for _, it := range d.Items {
		if it.QuantityShipped > 0 {
			return false
		}
		created = created || it.Status == StatusCreated
	}
	return created
}
