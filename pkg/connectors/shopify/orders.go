package shopify

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
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

// amount is the money's amount, nil without one.
func (m *money) amount() any {
	if m == nil || m.ShopMoney.Amount == "" {
		return nil
	}
	return m.ShopMoney.Amount
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
func paymentStatus(financial *string) any {
	if financial == nil {
		return nil
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
	doc := map[string]any{
		"channel_uuid": channel, "display_ref": o.Name, "ordered_at": ordered.UTC().Format(time.RFC3339),
		"payment_status": paymentStatus(o.DisplayFinancialStatus),
		"subtotal":       o.SubtotalPriceSet.amount(), "total": o.TotalPriceSet.amount(), "tax": o.TotalTaxSet.amount(),
		"shipping_cost": o.TotalShippingPriceSet.amount(), "discount": o.TotalDiscountsSet.amount(),
	}
	if o.CancelledAt != nil {
		doc["cancelled_at"] = o.CancelledAt.UTC().Format(time.RFC3339)
	}
	if o.Email != nil {
		doc["shipping_email"] = *o.Email
	}
	if o.Note != nil && *o.Note != "" {
		doc["customer_notes"] = *o.Note
	}
	if o.ShippingLine != nil {
		doc["requested_shipping_service"] = o.ShippingLine.Title
		if o.ShippingLine.CarrierIdentifier != nil {
			doc["requested_shipping_provider"] = *o.ShippingLine.CarrierIdentifier
		}
	}
	o.ShippingAddress.into(doc, "shipping")
	o.BillingAddress.into(doc, "billing")
	items := make([]map[string]any, 0, len(o.LineItems.Nodes))
	for _, l := range o.LineItems.Nodes {
		it := map[string]any{"order_item_ref": l.ID, "sku": deref(l.SKU), "quantity": l.Quantity, "title": l.Title,
			"unit_price": l.OriginalUnitPriceSet.amount(), "price": l.OriginalTotalSet.amount()}
		if l.CurrentQuantity <= 0 && l.Quantity > 0 {
			it["cancelled_at"] = o.UpdatedAt.UTC().Format(time.RFC3339)
		}
		items = append(items, it)
	}
	doc["items"] = items
	for k, v := range doc {
		if v == nil {
			delete(doc, k)
		}
	}
	return json.Marshal(doc)
}

// into puts the address's fields into doc as the prefix's (shipping, billing) fields.
func (a *address) into(doc map[string]any, prefix string) {
	if a == nil {
		return
	}
	for k, v := range map[string]*string{"contact_name": a.Name, "company_name": a.Company, "address_1": a.Address1,
		"address_2": a.Address2, "city": a.City, "state_region": a.ProvinceCode, "postal_code": a.Zip,
		"country_code": a.CountryCodeV2, "phone_number": a.Phone} {
		if v != nil && *v != "" {
			doc[prefix+"_"+k] = *v
		}
	}
}

// deref is *p, "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
