package shopify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// fulfillmentOrdersQuery finds an order by its name with its fulfillment orders (their
// location and lines) and the tracking numbers of its fulfillments.
const fulfillmentOrdersQuery = `query FulfillmentOrders($query: String!, $orders: Int!, $lines: Int!) {
  orders(first: 1, query: $query) {
    nodes { id name fulfillmentOrders(first: $orders) { nodes { id status assignedLocation { location { id } }
      lineItems(first: $lines) { nodes { id remainingQuantity lineItem { id } } pageInfo { hasNextPage } } } }
      fulfillments(first: 10) { status trackingInfo(first: 5) { number } } }
  }
}`

// fulfillmentOrdersPage is how many fulfillment orders of an order the query reads; their
// lines read are as many as pageBudget leaves room for.
const fulfillmentOrdersPage = 5

// fulfillmentLines is the most lines of each fulfillment order the query reads.
var fulfillmentLines = fit(fulfillmentOrdersQuery, map[string]any{"orders": fulfillmentOrdersPage}, "lines", maxPage, pageBudget)

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
	ID, Status       string
	AssignedLocation struct {
		Location *struct{ ID string } `json:"location"`
	} `json:"assignedLocation"`
	LineItems struct {
		Nodes []struct {
			ID                string
			RemainingQuantity int64
			LineItem          struct{ ID string }
		} `json:"nodes"`
		PageInfo pageInfo `json:"pageInfo"`
	} `json:"lineItems"`
}

// location is the id of the location the fulfillment order is assigned to ("" unknown).
func (fo fulfillmentOrder) location() string {
	if l := fo.AssignedLocation.Location; l != nil {
		return l.ID
	}
	return ""
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
// and its fulfillment orders in one query, then one fulfillmentCreate per location of the
// open fulfillment orders that hold the shipment's lines (an item's order item ref is its
// line item id; Shopify takes fulfillment orders of one location a call), with the tracking
// number, URL and company. Closed, cancelled and on-hold fulfillment orders receive
// nothing: quantity no open one holds fails the push, naming the lines, before anything is
// sent. The push is idempotent: quantity left unplaced after a fulfillment with the
// tracking number is taken as posted (a retry, a redelivery), and a shipment with nothing
// left to place is done.
func (c *connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	var a fulfillmentOrdersAnswer
	q := `name:"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(t.DisplayRef) + `"`
	vars := map[string]any{"query": q, "orders": fulfillmentOrdersPage, "lines": fulfillmentLines}
	if err := shrinking(ctx, s, fulfillmentOrdersQuery, vars, []string{"lines", "orders"}, &a); err != nil {
		return err
	}
	if len(a.Orders.Nodes) == 0 || a.Orders.Nodes[0].Name != t.DisplayRef {
		return fmt.Errorf("shopify: no order of the shop is named %q", t.DisplayRef)
	}
	o := a.Orders.Nodes[0]
	posted := tracked(o.Fulfillments, t.TrackingNumber)
	groups, err := lineItemsByFulfillmentOrder(o.FulfillmentOrders.Nodes, t.Items, posted)
	if err != nil {
		return fmt.Errorf("shopify: order %s: %w", t.DisplayRef, err)
	}
	if len(groups) == 0 {
		return nil // posted before
	}
	company := t.CarrierName
	if company == "Other" && t.CarrierNameGiven != "" {
		company = t.CarrierNameGiven // a carrier the Shopify rules do not know, as the merchant named it
	}
	tracking := map[string]any{"number": t.TrackingNumber, "company": company}
	if t.TrackingURL != "" {
		tracking["url"] = t.TrackingURL
	}
	for _, g := range groups {
		if err := fulfill(ctx, s, t.DisplayRef, map[string]any{"lineItemsByFulfillmentOrder": g, "trackingInfo": tracking, "notifyCustomer": true}); err != nil {
			return err
		}
	}
	return nil
}

// fulfill creates one fulfillment of the order named ref; Shopify's userErrors are the
// failure.
func fulfill(ctx context.Context, s *connectors.Session, ref string, in map[string]any) error {
	var f fulfillAnswer
	if err := call(ctx, s, fulfillMutation, map[string]any{"fulfillment": in}, mutationCost, &f); err != nil {
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
		return fmt.Errorf("shopify refused the fulfillment of %s: %s", ref, strings.Join(msgs, "; "))
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

// lineItemsByFulfillmentOrder places the shipped items on the open fulfillment orders'
// remaining quantities of their line items and returns the lineItemsByFulfillmentOrder of
// each location's fulfillmentCreate, by location in the order met. Quantity no open
// fulfillment order holds is an error naming the lines, unless posted (a fulfillment has
// the tracking number already: that quantity is taken as shipped by it).
func lineItemsByFulfillmentOrder(fos []fulfillmentOrder, items []connectors.TrackingItem, posted bool) ([][]map[string]any, error) {
	type key struct{ fo, line string }
	qty := map[key]int64{}
	var order []key
	var unplaced []string
	for _, it := range items {
		left, known := it.Quantity, false
		for _, fo := range fos {
			for _, l := range fo.LineItems.Nodes {
				if l.LineItem.ID != it.OrderItemRef {
					continue
				}
				known = true
				if fo.open() && left > 0 && l.RemainingQuantity > 0 {
					q := min(left, l.RemainingQuantity)
					k := key{fo.ID, l.ID}
					if _, ok := qty[k]; !ok {
						order = append(order, k)
					}
					qty[k] += q
					left -= q
				}
			}
		}
		switch {
		case !known && !posted && slices.ContainsFunc(fos, func(fo fulfillmentOrder) bool { return fo.LineItems.PageInfo.HasNextPage }):
			return nil, fmt.Errorf("line item %s is not among the first %d lines of each fulfillment order read (docs/connectors.md, Shopify tracking)", it.OrderItemRef, fulfillmentLines)
		case !known && !posted:
			return nil, fmt.Errorf("no line item %s", it.OrderItemRef)
		case left > 0 && !posted:
			unplaced = append(unplaced, fmt.Sprintf("%d of line item %s", left, it.OrderItemRef))
		}
	}
	if len(unplaced) > 0 {
		return nil, fmt.Errorf("no open fulfillment order holds %s (closed, cancelled or on hold, or shipped already)", strings.Join(unplaced, ", "))
	}
	if len(order) == 0 && !posted {
		return nil, errors.New("the shipment has no items")
	}
	locationOf := map[string]string{}
	for _, fo := range fos {
		locationOf[fo.ID] = fo.location()
	}
	var calls [][]map[string]any
	callOf, groupOf := map[string]int{}, map[string]map[string]any{}
	for _, k := range order {
		g, ok := groupOf[k.fo]
		if !ok {
			loc := locationOf[k.fo]
			i, ok := callOf[loc]
			if !ok {
				i = len(calls)
				callOf[loc] = i
				calls = append(calls, nil)
			}
			g = map[string]any{"fulfillmentOrderId": k.fo, "fulfillmentOrderLineItems": []map[string]any{}}
			groupOf[k.fo] = g
			calls[i] = append(calls[i], g)
		}
		g["fulfillmentOrderLineItems"] = append(g["fulfillmentOrderLineItems"].([]map[string]any), map[string]any{"id": k.line, "quantity": qty[k]})
	}
	return calls, nil
}
