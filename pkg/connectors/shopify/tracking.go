package shopify

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// fulfillmentOrdersQuery finds an order by its name with its fulfillment orders' lines and
// the tracking numbers of its fulfillments.
const fulfillmentOrdersQuery = `query FulfillmentOrders($query: String!) {
  orders(first: 1, query: $query) {
    nodes { id name fulfillmentOrders(first: 10) { nodes { id status
      lineItems(first: 100) { nodes { id remainingQuantity lineItem { id sku } } } } }
      fulfillments(first: 10) { status trackingInfo(first: 5) { number } } }
  }
}`

// fulfillmentOrdersCost is fulfillmentOrdersQuery's requested cost.
const fulfillmentOrdersCost = 2 + 1 + 2 + 10 + 2 + 100 + 5 + 2 + 10 + 2 + 5

// fulfillMutation creates one fulfillment with its tracking.
const fulfillMutation = `mutation Fulfill($fulfillment: FulfillmentInput!) {
  fulfillmentCreate(fulfillment: $fulfillment) {
    fulfillment { id status }
    userErrors { field message }
  }
}`

// fulfillmentOrdersAnswer is fulfillmentOrdersQuery's data.
type fulfillmentOrdersAnswer struct {
	Orders struct {
		Nodes []struct {
			ID, Name          string
			FulfillmentOrders struct {
				Nodes []fulfillmentOrder `json:"nodes"`
			} `json:"fulfillmentOrders"`
			Fulfillments []orderFulfillment `json:"fulfillments"`
		} `json:"nodes"`
	} `json:"orders"`
}

// fulfillmentOrder is an order's fulfillment order.
type fulfillmentOrder struct {
	ID, Status string
	LineItems  struct {
		Nodes []struct {
			ID                string
			RemainingQuantity int64
			LineItem          struct{ ID, SKU string }
		} `json:"nodes"`
	} `json:"lineItems"`
}

// orderFulfillment is a fulfillment of an order: its status and tracking numbers.
type orderFulfillment struct {
	Status       string
	TrackingInfo []struct{ Number string } `json:"trackingInfo"`
}

// open reports whether the fulfillment order takes fulfillments (open or in progress).
func (fo fulfillmentOrder) open() bool { return fo.Status == "OPEN" || fo.Status == "IN_PROGRESS" }

// fulfillAnswer is fulfillMutation's data.
type fulfillAnswer struct {
	Create *struct {
		Fulfillment *struct{ ID string } `json:"fulfillment"`
		UserErrors  []userError          `json:"userErrors"`
	} `json:"fulfillmentCreate"`
}

// PostTracking implements connectors.Connector: the order (by its name, the display ref)
// and its fulfillment orders in one query, then one fulfillmentCreate of the shipment's
// lines (an item's order item ref is its line item id) on the fulfillment orders that hold
// them, open ones first, with the tracking number, URL and company. Shopify's userErrors
// are the failure. The push is idempotent: when the order holds a fulfillment with the
// tracking number already and nothing of the shipment's lines is left open, the shipment
// was posted (a retry, a redelivery) and it is done.
func (c *connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	var a fulfillmentOrdersAnswer
	q := `name:"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t.DisplayRef) + `"`
	if err := call(ctx, s, fulfillmentOrdersQuery, map[string]any{"query": q}, fulfillmentOrdersCost, &a); err != nil {
		return err
	}
	if len(a.Orders.Nodes) == 0 || a.Orders.Nodes[0].Name != t.DisplayRef {
		return fmt.Errorf("shopify: no order of the shop is named %q", t.DisplayRef)
	}
	o := a.Orders.Nodes[0]
	groups, err := lineItemsByFulfillmentOrder(o.FulfillmentOrders.Nodes, t.Items)
	if err != nil {
		return fmt.Errorf("shopify: order %s: %w", t.DisplayRef, err)
	}
	if tracked(o.Fulfillments, t.TrackingNumber) && !leftOpen(o.FulfillmentOrders.Nodes, t.Items) {
		return nil
	}
	company := t.CarrierName
	if company == "Other" && t.CarrierNameGiven != "" {
		company = t.CarrierNameGiven // a carrier the Shopify rules do not know, as the merchant named it
	}
	tracking := map[string]any{"number": t.TrackingNumber, "company": company}
	if t.TrackingURL != "" {
		tracking["url"] = t.TrackingURL
	}
	in := map[string]any{"lineItemsByFulfillmentOrder": groups, "trackingInfo": tracking, "notifyCustomer": true}
	var f fulfillAnswer
	if err := call(ctx, s, fulfillMutation, map[string]any{"fulfillment": in}, setCost, &f); err != nil {
		return err
	}
	switch {
	case f.Create == nil:
		return &AnswerError{Status: 200, Message: "fulfillmentCreate: no payload"}
	case len(f.Create.UserErrors) > 0:
		msgs := make([]string, len(f.Create.UserErrors))
		for i, e := range f.Create.UserErrors {
			msgs[i] = e.Message
		}
		return fmt.Errorf("shopify refused the fulfillment of %s: %s", t.DisplayRef, strings.Join(msgs, "; "))
	case f.Create.Fulfillment == nil:
		return &AnswerError{Status: 200, Message: "fulfillmentCreate: neither a fulfillment nor userErrors"}
	}
	return nil
}

// tracked reports whether a fulfillment that stands (not cancelled nor failed) has the
// tracking number.
func tracked(fs []orderFulfillment, number string) bool {
	for _, f := range fs {
		if number == "" || f.Status == "CANCELLED" || f.Status == "ERROR" || f.Status == "FAILURE" {
			continue
		}
		for _, ti := range f.TrackingInfo {
			if ti.Number == number {
				return true
			}
		}
	}
	return false
}

// leftOpen reports whether an open fulfillment order has some of the items' line items left
// to ship.
func leftOpen(fos []fulfillmentOrder, items []connectors.TrackingItem) bool {
	refs := map[string]bool{}
	for _, it := range items {
		refs[it.OrderItemRef] = true
	}
	for _, fo := range fos {
		for _, l := range fo.LineItems.Nodes {
			if fo.open() && refs[l.LineItem.ID] && l.RemainingQuantity > 0 {
				return true
			}
		}
	}
	return false
}

// lineItemsByFulfillmentOrder spreads the shipped items over the fulfillment order lines
// of their line items: open fulfillment orders' remaining quantities first; what they do not
// hold goes on the first line of the item, for Shopify to judge (its userErrors say why not).
func lineItemsByFulfillmentOrder(fos []fulfillmentOrder, items []connectors.TrackingItem) ([]map[string]any, error) {
	type key struct{ fo, line string }
	qty := map[key]int64{}
	var order []key
	add := func(k key, q int64) {
		if _, ok := qty[k]; !ok {
			order = append(order, k)
		}
		qty[k] += q
	}
	for _, it := range items {
		left, first := it.Quantity, key{}
		for _, fo := range fos {
			for _, l := range fo.LineItems.Nodes {
				if l.LineItem.ID != it.OrderItemRef {
					continue
				}
				if first == (key{}) {
					first = key{fo.ID, l.ID}
				}
				if fo.open() && left > 0 && l.RemainingQuantity > 0 {
					q := min(left, l.RemainingQuantity)
					add(key{fo.ID, l.ID}, q)
					left -= q
				}
			}
		}
		if first == (key{}) {
			return nil, fmt.Errorf("no line item %s", it.OrderItemRef)
		}
		if left > 0 {
			add(first, left)
		}
	}
	if len(order) == 0 {
		return nil, errors.New("the shipment has no items")
	}
	var groups []map[string]any
	byFO := map[string]int{}
	for _, k := range order {
		i, ok := byFO[k.fo]
		if !ok {
			i = len(groups)
			byFO[k.fo] = i
			groups = append(groups, map[string]any{"fulfillmentOrderId": k.fo, "fulfillmentOrderLineItems": []map[string]any{}})
		}
		groups[i]["fulfillmentOrderLineItems"] = append(groups[i]["fulfillmentOrderLineItems"].([]map[string]any), map[string]any{"id": k.line, "quantity": qty[k]})
	}
	return groups, nil
}
