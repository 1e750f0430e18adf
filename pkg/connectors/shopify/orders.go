package shopify

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/wire"
)

// ordersPage is the most orders one poll reads in a page; linesPage the most lines of an
// order read with it (the rest are read by the order's id).
const (
	ordersPage = 150
	linesPage  = 50
)

// orderFields are the fields of an order the document is made of.
const orderFields = `id name createdAt processedAt updatedAt cancelledAt displayFinancialStatus email note
  subtotalPriceSet { shopMoney { amount } } totalPriceSet { shopMoney { amount } }
  totalTaxSet { shopMoney { amount } } totalShippingPriceSet { shopMoney { amount } }
  totalDiscountsSet { shopMoney { amount } }
  shippingAddress { ...address } billingAddress { ...address }
  shippingLine { title carrierIdentifier }`

// lineFields are the fields of a line item the document is made of.
const lineFields = `nodes { id sku title quantity currentQuantity originalUnitPriceSet { shopMoney { amount } } originalTotalSet { shopMoney { amount } } }
  pageInfo { hasNextPage endCursor }`

// addressFragment is the fields of an address.
const addressFragment = `fragment address on MailingAddress { name company address1 address2 city provinceCode zip countryCodeV2 phone }`

// ordersQuery reads a page of the orders updated since a time, by update time.
const ordersQuery = `query Orders($first: Int!, $after: String, $query: String!) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes { ` + orderFields + `
      lineItems(first: 50) { ` + lineFields + ` } }
    pageInfo { hasNextPage endCursor }
  }
}
` + addressFragment

// ordersCost is ordersQuery's requested cost.
const ordersCost = 2 + ordersPage + 20 + 2 + linesPage + 5

// linesQuery reads more lines of an order.
const linesQuery = `query Lines($id: ID!, $after: String) {
  order(id: $id) { lineItems(first: 250, after: $after) { ` + lineFields + ` } }
}`

// linesCost is linesQuery's requested cost.
const linesCost = 1 + 2 + 250 + 5

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
// by update time; an order with more lines than a page has its other lines read by its id.
func (c *connector) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	vars := map[string]any{"first": ordersPage, "query": "updated_at:>='" + q.Since.UTC().Format(time.RFC3339) + "'"}
	if q.Page != "" {
		vars["after"] = q.Page
	}
	var a ordersAnswer
	if err := call(ctx, s, ordersQuery, vars, ordersCost, &a); err != nil {
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
			if err := call(ctx, s, linesQuery, map[string]any{"id": o.ID, "after": after.EndCursor}, linesCost, &more); err != nil {
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

// document is the order import document of the order (docs/orders.md): the line item ids
// are the order item refs, a line refunded or removed in full (current quantity 0) is
// cancelled at the order's update, a cancelled order carries cancelled_at.
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
		PaymentStatus: paymentStatus(o.DisplayFinancialStatus),
		Subtotal:      o.SubtotalPriceSet.amount(), Total: o.TotalPriceSet.amount(), Tax: o.TotalTaxSet.amount(),
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
	doc.Items = make([]wire.OrderItem, 0, len(o.LineItems.Nodes))
	for _, l := range o.LineItems.Nodes {
		it := wire.OrderItem{OrderItemRef: l.ID, SKU: deref(l.SKU), Quantity: l.Quantity, Title: l.Title,
			UnitPrice: l.OriginalUnitPriceSet.amount(), Price: l.OriginalTotalSet.amount()}
		if l.CurrentQuantity <= 0 && l.Quantity > 0 {
			it.CancelledAt = o.UpdatedAt.UTC().Format(time.RFC3339)
		}
		doc.Items = append(doc.Items, it)
	}
	return json.Marshal(doc)
}

// deref is *p, "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
