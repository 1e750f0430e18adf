package shopify

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/wire"
)

// orderLines is how many line items of each order a page of orders reads with it (an order
// with more has the rest read by its id, linesQuery); the orders of a page are as many as
// pageBudget leaves room for (ordersPage).
const orderLines = 5

// pageBudget is the requested cost a page is sized to: well within the single query's
// limit (maxQueryCost), since Shopify runs a query only when the bucket holds its whole
// requested cost. At 50 points a second a page's points are back in 8 s, so a poll's pages
// follow each other and a few failed answers (whose points the runtime cannot know were
// refunded) do not put off the next poll.
const pageBudget = 400

// orderFields are the fields of an order the document is made of.
const orderFields = `id name createdAt processedAt updatedAt cancelledAt displayFinancialStatus email note currencyCode
  subtotalPriceSet { shopMoney { amount } } totalPriceSet { shopMoney { amount } }
  totalTaxSet { shopMoney { amount } } totalShippingPriceSet { shopMoney { amount } }
  totalDiscountsSet { shopMoney { amount } }
  shippingAddress { ...address } billingAddress { ...address }
  shippingLine { title carrierIdentifier }
  fulfillments(first: 3) { createdAt status trackingInfo(first: 1) { company number } }`

// lineFields are the fields of a line item the document is made of.
const lineFields = `nodes { id sku title quantity currentQuantity unfulfilledQuantity requiresShipping
    originalUnitPriceSet { shopMoney { amount } } originalTotalSet { shopMoney { amount } } }
  pageInfo { hasNextPage endCursor }`

// addressFragment is the fields of an address.
const addressFragment = `fragment address on MailingAddress { name company address1 address2 city provinceCode zip countryCodeV2 phone }`

// ordersQuery reads a page of the orders updated since a time, by update time, each with
// its first line items.
const ordersQuery = `query Orders($first: Int!, $lines: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes { ` + orderFields + `
      lineItems(first: $lines) { ` + lineFields + ` } }
    pageInfo { hasNextPage endCursor }
  }
}
` + addressFragment

// linesQuery reads more lines of an order.
const linesQuery = `query Lines($id: ID!, $first: Int!, $after: String) {
  order(id: $id) { lineItems(first: $first, after: $after) { ` + lineFields + ` } }
}`

// maxPage is the most nodes a connection gives in one page.
const maxPage = 250

// ordersPage is the most orders a page reads (with orderLines lines each) within
// pageBudget; linesPage the most lines linesQuery reads.
var (
	ordersPage = fit(ordersQuery, map[string]any{"lines": orderLines}, "first", maxPage, pageBudget)
	linesPage  = fit(linesQuery, nil, "first", maxPage, pageBudget)
)

// money is a MoneyBag's amount in the shop's currency.
type money struct {
	ShopMoney struct {
		Amount string `json:"amount"`
	} `json:"shopMoney"`
}

// amount is the money's amount, "" without one.
func (m *money) amount() wire.Amount {
	if m == nil {
		return ""
	}
	return wire.Amount(m.ShopMoney.Amount)
}

// address is a MailingAddress.
type address struct {
	Name, Company, Address1, Address2, City, ProvinceCode, Zip, CountryCodeV2, Phone *string
}

// pageInfo is a connection's paging.
type pageInfo struct {
	HasNextPage bool   `json:"hasNextPage"`
	EndCursor   string `json:"endCursor"`
}

// lineItems is a page of an order's line items.
type lineItems struct {
	Nodes []struct {
		ID, Title            string
		SKU                  *string
		Quantity             int64
		CurrentQuantity      int64
		UnfulfilledQuantity  int64
		RequiresShipping     bool
		OriginalUnitPriceSet *money
		OriginalTotalSet     *money
	} `json:"nodes"`
	PageInfo pageInfo `json:"pageInfo"`
}

// order is an order as ordersQuery reads it.
type order struct {
	ID, Name                                     string
	CreatedAt, ProcessedAt, UpdatedAt            time.Time
	CancelledAt                                  *time.Time
	DisplayFinancialStatus                       *string
	Email, Note                                  *string
	SubtotalPriceSet, TotalPriceSet, TotalTaxSet *money
	TotalShippingPriceSet, TotalDiscountsSet     *money
	ShippingAddress, BillingAddress              *address
	ShippingLine                                 *struct {
		Title             string
		CarrierIdentifier *string
	}
	CurrencyCode string
	Fulfillments []struct {
		CreatedAt    time.Time
		Status       string
		TrackingInfo []struct{ Company, Number *string } `json:"trackingInfo"`
	} `json:"fulfillments"`
	LineItems lineItems
}

// ordersAnswer is ordersQuery's data.
type ordersAnswer struct {
	Orders struct {
		Nodes    []order  `json:"nodes"`
		PageInfo pageInfo `json:"pageInfo"`
	} `json:"orders"`
}

// PollOrders implements connectors.Connector: a page of the orders updated since q.Since,
// by update time, sized to the single query's cost limit; an order with more lines than a
// page reads has its other lines read by its id. MAX_COST_EXCEEDED (the shop reckons more
// than the connector) halves the page and asks again.
func (c *connector) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	vars := map[string]any{"first": ordersPage, "lines": orderLines, "query": "updated_at:>='" + q.Since.UTC().Format(time.RFC3339) + "'"}
	if q.Page != "" {
		vars["after"] = q.Page
	}
	var a ordersAnswer
	if err := shrinking(ctx, s, ordersQuery, vars, []string{"first", "lines"}, &a); err != nil {
		return connectors.OrderPage{}, err
	}
	page := connectors.OrderPage{}
	if a.Orders.PageInfo.HasNextPage {
		if a.Orders.PageInfo.EndCursor == "" {
			return connectors.OrderPage{}, &AnswerError{Status: 200, Message: "orders: a next page without its cursor"}
		}
		page.Next = a.Orders.PageInfo.EndCursor
	}
	for _, o := range a.Orders.Nodes {
		for after := o.LineItems.PageInfo; after.HasNextPage; {
			var more struct {
				Order *struct{ LineItems lineItems } `json:"order"`
			}
			lv := map[string]any{"id": o.ID, "first": linesPage, "after": after.EndCursor}
			if err := shrinking(ctx, s, linesQuery, lv, []string{"first"}, &more); err != nil {
				return connectors.OrderPage{}, err
			}
			if more.Order == nil || after.EndCursor == "" {
				return connectors.OrderPage{}, &AnswerError{Status: 200, Message: fmt.Sprintf("order %s: its other lines are gone", o.Name)}
			}
			o.LineItems.Nodes = append(o.LineItems.Nodes, more.Order.LineItems.Nodes...)
			after = more.Order.LineItems.PageInfo
		}
		doc, err := o.document(s.Channel)
		if err != nil {
			return connectors.OrderPage{}, err
		}
		page.Orders = append(page.Orders, connectors.Order{Ref: o.Name, UpdatedAt: o.UpdatedAt, Document: doc})
	}
	return page, nil
}

// shrinking calls a query whose sizes are the variables keys (the page first): its cost is
// reckoned from vars, and a MAX_COST_EXCEEDED answer halves the first size above 1 and asks
// again, so that it is never a failed poll; only a query of size 1 refused is an error.
func shrinking(ctx context.Context, s *connectors.Session, query string, vars map[string]any, keys []string, out any) error {
	for {
		err := call(ctx, s, query, vars, queryCost(query, vars), out)
		if !costExceeded(err) {
			return err
		}
		i := slices.IndexFunc(keys, func(k string) bool { return vars[k].(int) > 1 })
		if i < 0 {
			return err
		}
		vars[keys[i]] = vars[keys[i]].(int) / 2
		slog.InfoContext(ctx, "shopify query over the cost limit: smaller page", "channel", s.Channel, keys[i], vars[keys[i]])
	}
}

// parseOrders reads ordersQuery's data into the documents of the channel's orders (the
// fuzz target of the orders answer).
func parseOrders(channel string, data []byte) ([]json.RawMessage, error) {
	var a ordersAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, err
	}
	var out []json.RawMessage
	for _, o := range a.Orders.Nodes {
		doc, err := o.document(channel)
		if err != nil {
			return nil, err
		}
		out = append(out, doc)
	}
	return out, nil
}

// paymentStatus is our payment status of Shopify's financial status: paid is all; partly
// paid or partly refunded is partial; pending, authorized, voided, expired and refunded are
// none.
func paymentStatus(financial *string) string {
	if financial == nil {
		return ""
	}
	switch *financial {
	case "PAID":
		return "all"
	case "PARTIALLY_PAID", "PARTIALLY_REFUNDED":
		return "partial"
	}
	return "none"
}

// document is the order import document of the order (docs/orders.md; the mapping is in
// docs/connectors.md, Shopify): the line item ids are the order item refs, the money in the
// shop's currency, a line refunded or removed in full (current quantity 0) is cancelled at
// the order's update, a cancelled order carries cancelled_at.
func (o order) document(channel string) (json.RawMessage, error) {
	if o.ID == "" || o.Name == "" {
		return nil, &AnswerError{Status: 200, Message: "orders: an order without its id or name"}
	}
	ordered := o.ProcessedAt
	if ordered.IsZero() {
		ordered = o.CreatedAt
	}
	doc := wire.OrderDocument{
		ChannelUUID: channel, DisplayRef: o.Name, OrderedAt: ordered.UTC().Format(time.RFC3339),
		PaymentStatus: paymentStatus(o.DisplayFinancialStatus), Currency: o.CurrencyCode,
		Subtotal: o.SubtotalPriceSet.amount(), Total: o.TotalPriceSet.amount(), Tax: o.TotalTaxSet.amount(),
		ShippingCost: o.TotalShippingPriceSet.amount(), Discount: o.TotalDiscountsSet.amount(),
		ShippingEmail: deref(o.Email), CustomerNotes: deref(o.Note),
	}
	if o.CancelledAt != nil {
		doc.CancelledAt = o.CancelledAt.UTC().Format(time.RFC3339)
	}
	if o.ShippingLine != nil {
		doc.RequestedShippingService, doc.RequestedShippingProvider = o.ShippingLine.Title, deref(o.ShippingLine.CarrierIdentifier)
	}
	if a := o.ShippingAddress; a != nil {
		doc.ShippingContactName, doc.ShippingCompanyName, doc.ShippingPhoneNumber = deref(a.Name), deref(a.Company), deref(a.Phone)
		doc.ShippingAddress1, doc.ShippingAddress2, doc.ShippingCity = deref(a.Address1), deref(a.Address2), deref(a.City)
		doc.ShippingStateRegion, doc.ShippingPostalCode, doc.ShippingCountryCode = deref(a.ProvinceCode), deref(a.Zip), deref(a.CountryCodeV2)
	}
	if a := o.BillingAddress; a != nil {
		doc.BillingContactName, doc.BillingCompanyName, doc.BillingPhoneNumber = deref(a.Name), deref(a.Company), deref(a.Phone)
		doc.BillingAddress1, doc.BillingAddress2, doc.BillingCity = deref(a.Address1), deref(a.Address2), deref(a.City)
		doc.BillingStateRegion, doc.BillingPostalCode, doc.BillingCountryCode = deref(a.ProvinceCode), deref(a.Zip), deref(a.CountryCodeV2)
	}
	carrier, number := o.tracking()
	doc.Items = make([]wire.OrderItem, 0, len(o.LineItems.Nodes))
	for _, l := range o.LineItems.Nodes {
		it := wire.OrderItem{OrderItemRef: l.ID, SKU: deref(l.SKU), Quantity: l.Quantity, Title: l.Title,
			UnitPrice: l.OriginalUnitPriceSet.amount(), Price: l.OriginalTotalSet.amount()}
		if strings.TrimSpace(it.SKU) == "" {
			it.SKU = customSKU(l.ID)
		}
		current := min(max(l.CurrentQuantity, 0), l.Quantity)
		it.QuantityCancelled = l.Quantity - current
		if l.RequiresShipping {
			it.QuantityShipped = min(max(current-l.UnfulfilledQuantity, 0), current)
		}
		if it.QuantityShipped > 0 {
			it.CarrierName, it.TrackingNumber = carrier, number
		}
		if current == 0 && l.Quantity > 0 {
			it.CancelledAt = o.UpdatedAt.UTC().Format(time.RFC3339)
		}
		doc.Items = append(doc.Items, it)
	}
	return json.Marshal(doc)
}

// customSKUPrefix starts the channel SKU of a line without one (a custom item, a tip): no
// product has it, so the import links it to no inventory and the line is imported with its
// price and nothing reserved.
const customSKUPrefix = "shopify-custom-line:"

// customSKU is the channel SKU of the line item id without a SKU: the prefix and the
// line's number.
func customSKU(lineID string) string {
	return customSKUPrefix + strings.TrimPrefix(lineID, "gid://shopify/LineItem/")
}

// tracking is the carrier and tracking number of the order's latest fulfillment that stands
// (not cancelled nor failed) and has tracking: the shipment of its shipped lines.
func (o order) tracking() (carrier, number string) {
	var at time.Time
	for _, f := range o.Fulfillments {
		if f.Status == "CANCELLED" || f.Status == "ERROR" || f.Status == "FAILURE" || len(f.TrackingInfo) == 0 || f.CreatedAt.Before(at) {
			continue
		}
		at, carrier, number = f.CreatedAt, deref(f.TrackingInfo[0].Company), deref(f.TrackingInfo[0].Number)
	}
	return carrier, number
}

// deref is *p, "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
