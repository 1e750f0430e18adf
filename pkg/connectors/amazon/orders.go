package amazon

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/redact"
	"github.com/multisell/multisell/pkg/wire"
)

// money is Amazon's Money.
type money struct {
	CurrencyCode string `json:"CurrencyCode"`
	Amount       string `json:"Amount"`
}

// amount is m's amount ("" for none).
func (m *money) amount() string {
	if m == nil {
		return ""
	}
	return m.Amount
}

// order is the part of Amazon's Order the mapping reads.
type order struct {
	AmazonOrderID      string `json:"AmazonOrderId"`
	PurchaseDate       string `json:"PurchaseDate"`
	LastUpdateDate     string `json:"LastUpdateDate"`
	OrderStatus        string `json:"OrderStatus"`
	ShipServiceLevel   string `json:"ShipServiceLevel"`
	OrderTotal         *money `json:"OrderTotal"`
	LatestShipDate     string `json:"LatestShipDate"`
	LatestDeliveryDate string `json:"LatestDeliveryDate"`
	ShippingAddress    *struct {
		Name          string `json:"Name"`
		CompanyName   string `json:"CompanyName"`
		AddressLine1  string `json:"AddressLine1"`
		AddressLine2  string `json:"AddressLine2"`
		AddressLine3  string `json:"AddressLine3"`
		City          string `json:"City"`
		StateOrRegion string `json:"StateOrRegion"`
		PostalCode    string `json:"PostalCode"`
		CountryCode   string `json:"CountryCode"`
		Phone         string `json:"Phone"`
	} `json:"ShippingAddress"`
	BuyerInfo *struct {
		BuyerEmail string `json:"BuyerEmail"`
	} `json:"BuyerInfo"`
	updated time.Time
}

// orderItem is the part of Amazon's OrderItem the mapping reads.
type orderItem struct {
	ASIN            string `json:"ASIN"`
	SellerSKU       string `json:"SellerSKU"`
	OrderItemID     string `json:"OrderItemId"`
	Title           string `json:"Title"`
	QuantityOrdered *int64 `json:"QuantityOrdered"`
	QuantityShipped int64  `json:"QuantityShipped"`
	ItemPrice       *money `json:"ItemPrice"`
	ItemTax         *money `json:"ItemTax"`
	ShippingPrice   *money `json:"ShippingPrice"`
	ShippingTax     *money `json:"ShippingTax"`
	// ShippingDiscount and PromotionDiscount are positive amounts off the buyer's charge.
	ShippingDiscount  *money `json:"ShippingDiscount"`
	PromotionDiscount *money `json:"PromotionDiscount"`
}

// ordersPath is getOrders' path.
const ordersPath = "/orders/v0/orders"

// ordersPage is getOrders' answer.
type ordersPage struct {
	Payload *struct {
		Orders    []order `json:"Orders"`
		NextToken string  `json:"NextToken"`
	} `json:"payload"`
}

// itemsPage is getOrderItems' answer.
type itemsPage struct {
	Payload *struct {
		OrderItems []orderItem `json:"OrderItems"`
		NextToken  string      `json:"NextToken"`
	} `json:"payload"`
}

// PollOrders implements connectors.Connector: one getOrders page of the seller's orders it
// fulfills itself (MFN) changed since q.Since, each with its lines (getOrderItems, which has
// its own limit), oldest change first. When the limit of getOrderItems puts off the rest of
// a page, the orders read so far are the page and its Next is a page token of the
// connector's own (resume) that goes on at the first order not done: the same getOrders
// page read again, the orders done skipped; never the page from its start. A page whose
// poll comes within itemsMargin of its deadline ends the same way (the runtime keeps the
// token for the next poll), so a page with more orders than one poll can fetch the items of
// never holds the walk back. A malformed answer fails the page: none of it is imported, and
// the poll is retried from the same cursor. An order that cannot be mapped (a required field missing) is left out and named in
// the page's Refused; the others are imported.
func (c *Connector) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	cr := s.Credentials.(credentials)
	at, err := parseResume(q.Page)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	v := url.Values{"MarketplaceIds": {cr.MarketplaceID}}
	switch {
	case at.Next != "":
		v.Set("NextToken", at.Next)
	case at.Since != "":
		v.Set("LastUpdatedAfter", at.Since)
		v.Set("FulfillmentChannels", "MFN")
		v.Set("MaxResultsPerPage", strconv.Itoa(setting(c.PageSize, DefaultPageSize)))
	default:
		at.Since = q.Since.UTC().Format(time.RFC3339)
		v.Set("LastUpdatedAfter", at.Since)
		v.Set("FulfillmentChannels", "MFN")
		v.Set("MaxResultsPerPage", strconv.Itoa(setting(c.PageSize, DefaultPageSize)))
	}
	body, notices, err := readOrders(ctx, s, v)
	if err != nil {
		return connectors.OrderPage{}, err
	}
	orders, unmapped, next, err := parseOrders(body)
	if err != nil {
		slog.WarnContext(ctx, "amazon: bad getOrders answer", "account", s.Account, "channel", s.Channel, "error", s.Clean(err.Error()))
		return connectors.OrderPage{}, err
	}
	out := connectors.OrderPage{Next: next, Notices: notices}
	refuse := func(err error) {
		reason := s.Clean(err.Error())
		slog.WarnContext(ctx, "amazon: order not imported", "account", s.Account, "channel", s.Channel, "error", reason)
		out.Refused = append(out.Refused, reason)
	}
	from := at.skip(orders)
	if from == 0 {
		for _, err := range unmapped {
			refuse(err)
		}
	}
	for i := from; i < len(orders); i++ {
		o := orders[i]
		cut := resume{Next: at.Next, Since: at.Since, Offset: i}
		if i > from && nearDeadline(ctx) {
			cut.Last = orders[i-1].AmazonOrderID
			out.Next = cut.token()
			return out, nil
		}
		items, err := orderItems(ctx, s, o.AmazonOrderID)
		var th *connectors.Throttled
		if errors.As(err, &th) && i > from {
			cut.Last = orders[i-1].AmazonOrderID
			out.Next = cut.token()
			return out, nil
		}
		if err != nil {
			return connectors.OrderPage{}, err
		}
		doc, err := document(s.Channel, o, items)
		if err != nil {
			refuse(err)
			continue
		}
		if doc == nil {
			continue
		}
		out.Orders = append(out.Orders, connectors.Order{Ref: o.AmazonOrderID, UpdatedAt: o.updated, Document: doc})
	}
	return out, nil
}

// itemsMargin is how long before its context's deadline a poll stops reading order items,
// as the runtime stops reading pages (its poll margin): the orders done so far are the page,
// with the time left to send them and keep the poll's position.
const itemsMargin = 10 * time.Second

// nearDeadline reports whether ctx ends within itemsMargin.
func nearDeadline(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && time.Until(d) < itemsMargin
}

// parseOrders reads a getOrders answer: its orders (each with its required fields), oldest
// change first; the reason of each order it left out (no AmazonOrderId, OrderStatus or
// PurchaseDate, or an unreadable LastUpdateDate); and the next page's token.
func parseOrders(body []byte) (orders []order, unmapped []error, next string, err error) {
	var p ordersPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, nil, "", fmt.Errorf("amazon getOrders: malformed answer: %w", err)
	}
	if p.Payload == nil {
		return nil, nil, "", fmt.Errorf("amazon getOrders: the answer has no payload")
	}
	for i, o := range p.Payload.Orders {
		if o.AmazonOrderID == "" || o.OrderStatus == "" || o.PurchaseDate == "" {
			unmapped = append(unmapped, fmt.Errorf("amazon getOrders: order %d of the page (%q) lacks AmazonOrderId, OrderStatus or PurchaseDate",
				i+1, redact.Clip(o.AmazonOrderID, 40)))
			continue
		}
		t, err := time.Parse(time.RFC3339, o.LastUpdateDate)
		if err != nil {
			unmapped = append(unmapped, fmt.Errorf("amazon getOrders: order %s: LastUpdateDate %q is not an ISO 8601 time",
				redact.Clip(o.AmazonOrderID, 40), redact.Clip(o.LastUpdateDate, 40)))
			continue
		}
		o.updated = t
		orders = append(orders, o)
	}
	slices.SortStableFunc(orders, func(a, b order) int { return a.updated.Compare(b.updated) })
	return orders, unmapped, p.Payload.NextToken, nil
}

// orderItems reads every page of an order's lines.
func orderItems(ctx context.Context, s *connectors.Session, id string) ([]orderItem, error) {
	var all []orderItem
	next := ""
	for {
		var v url.Values
		if next != "" {
			v = url.Values{"NextToken": {next}}
		}
		body, err := call(ctx, s, OpGetOrderItems, "GET", "/orders/v0/orders/"+url.PathEscape(id)+"/orderItems", v, nil)
		if err != nil {
			return nil, err
		}
		items, tok, err := parseItems(body)
		if err != nil {
			slog.WarnContext(ctx, "amazon: bad getOrderItems answer", "account", s.Account, "channel", s.Channel, "order", id, "error", s.Clean(err.Error()))
			return nil, fmt.Errorf("order %s: %w", id, err)
		}
		all = append(all, items...)
		if tok == "" {
			return all, nil
		}
		next = tok
	}
}

// parseItems reads a getOrderItems answer: its lines (document checks their fields) and the
// next page's token.
func parseItems(body []byte) ([]orderItem, string, error) {
	var p itemsPage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, "", fmt.Errorf("amazon getOrderItems: malformed answer: %w", err)
	}
	if p.Payload == nil {
		return nil, "", fmt.Errorf("amazon getOrderItems: the answer has no payload")
	}
	return p.Payload.OrderItems, p.Payload.NextToken, nil
}

// line is the document's line of an order's item: its status is the order's, or Shipped /
// PartiallyShipped from its QuantityShipped, which is its quantity_shipped; a Canceled order's
// lines have the rest cancelled (quantity_cancelled). An item of no quantity left (its units
// cancelled: Amazon shows them no longer ordered, and says neither how many there were nor
// how many it cancelled) is a line of 1 unit cancelled, which the import reads as every unit
// of the line it holds cancelled (docs/orders.md, "Lines shipped or cancelled on the channel").
func line(o order, it orderItem, sku string) wire.OrderItem {
	ordered := *it.QuantityOrdered
	if ordered == 0 {
		return wire.OrderItem{OrderItemRef: it.OrderItemID, SKU: sku, Quantity: 1, QuantityCancelled: 1, Status: "Canceled", Title: it.Title}
	}
	status := o.OrderStatus
	shipped := min(max(it.QuantityShipped, 0), ordered)
	switch {
	case shipped == ordered:
		status = "Shipped"
	case shipped > 0:
		status = "PartiallyShipped"
	}
	l := wire.OrderItem{OrderItemRef: it.OrderItemID, SKU: sku, Quantity: ordered, Status: status, Title: it.Title,
		Price: wire.Amount(it.ItemPrice.amount()), Tax: wire.Amount(it.ItemTax.amount()), QuantityShipped: shipped}
	if o.OrderStatus == "Canceled" {
		l.QuantityCancelled = ordered - shipped
	}
	return l
}

// document is the order import document (docs/orders.md) of an order and its lines:
// Pending (and PendingAvailability) orders are imported unpaid (payment_status none: they
// reserve stock, and the line status says Amazon does not let them ship yet); Canceled and
// Unfulfillable orders are cancelled at their last change; its lines are line's. The amounts
// are amounts' (money.go). A cancelled order's lines of no quantity (cancelled before the
// order was) are left out. A line's sku is its SellerSKU, else (an
// optional field) its ASIN: no product has that SKU, so the line imports unassigned. A line
// without OrderItemId, QuantityOrdered or both SKU and ASIN fails the order's document.
func document(channel string, o order, items []orderItem) (json.RawMessage, error) {
	doc := wire.OrderDocument{ChannelUUID: channel, DisplayRef: o.AmazonOrderID, OrderedAt: o.PurchaseDate,
		RequestedShippingService: o.ShipServiceLevel, ShipByDate: o.LatestShipDate, DeliverByDate: o.LatestDeliveryDate}
	switch o.OrderStatus {
	case "Pending", "PendingAvailability":
		doc.PaymentStatus = "none"
	case "Canceled", "Unfulfillable":
		doc.CancelledAt = o.LastUpdateDate
	default:
		doc.PaymentStatus = "all"
	}
	if a := o.ShippingAddress; a != nil {
		doc.ShippingContactName, doc.ShippingCompanyName = a.Name, a.CompanyName
		doc.ShippingAddress1, doc.ShippingAddress2, doc.ShippingAddress3 = a.AddressLine1, a.AddressLine2, a.AddressLine3
		doc.ShippingCity, doc.ShippingStateRegion, doc.ShippingPostalCode = a.City, a.StateOrRegion, a.PostalCode
		doc.ShippingCountryCode, doc.ShippingPhoneNumber = a.CountryCode, a.Phone
	}
	if o.BuyerInfo != nil {
		doc.ShippingEmail = o.BuyerInfo.BuyerEmail
	}
	doc.Items = []wire.OrderItem{}
	for i, it := range items {
		if it.OrderItemID == "" || it.QuantityOrdered == nil || *it.QuantityOrdered < 0 {
			return nil, fmt.Errorf("amazon order %s: line %d lacks OrderItemId or QuantityOrdered", o.AmazonOrderID, i+1)
		}
		sku := cmp.Or(it.SellerSKU, it.ASIN)
		if sku == "" {
			return nil, fmt.Errorf("amazon order %s: line %s has neither SellerSKU nor ASIN", o.AmazonOrderID, redact.Clip(it.OrderItemID, 40))
		}
		if *it.QuantityOrdered == 0 && doc.CancelledAt != "" {
			continue
		}
		doc.Items = append(doc.Items, line(o, it, sku))
	}
	if err := amounts(&doc, o, items); err != nil {
		return nil, err
	}
	if len(doc.Items) == 0 && doc.CancelledAt != "" {
		return nil, nil // cancelled before any line had a quantity: nothing to import
	}
	if len(doc.Items) == 0 {
		return nil, fmt.Errorf("amazon order %s has no line with a quantity", o.AmazonOrderID)
	}
	return json.Marshal(doc)
}
