package shopify

import (
	"fmt"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
)

func TestParseCredentials(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, want string
	}{
		{"gid", `{"shop_domain":"Example.myshopify.com","access_token":"shpat_1","location_id":"gid://shopify/Location/12"}`, "{example.myshopify.com shpat_1 gid://shopify/Location/12   } <nil>"},
		{"number", `{"shop_domain":"example.myshopify.com","access_token":"shpat_1","location_id":"12"}`, "{example.myshopify.com shpat_1 gid://shopify/Location/12   } <nil>"},
		{"dev dashboard app", `{"shop_domain":"example.myshopify.com","client_id":"c1","client_secret":"shpss_2","location_id":"12"}`, "{example.myshopify.com  gid://shopify/Location/12 c1 shpss_2 } <nil>"},
		{"app by consent", `{"shop_domain":"example.myshopify.com","client_id":"c1","client_secret":"shpss_2","refresh_token":"shprt_3","location_id":"12"}`, "{example.myshopify.com  gid://shopify/Location/12 c1 shpss_2 shprt_3} <nil>"},
		{"refresh token without the app", `{"shop_domain":"example.myshopify.com","refresh_token":"shprt_3","location_id":"12"}`, "<nil> invalid: credentials.client_id is required"},
		{"refresh token and access token", `{"shop_domain":"example.myshopify.com","access_token":"t","client_id":"c1","client_secret":"s","refresh_token":"r","location_id":"12"}`, "<nil> invalid: credentials.access_token is not a field of this channel type"},
		{"app without its secret", `{"shop_domain":"example.myshopify.com","client_id":"c1","location_id":"12"}`, "<nil> invalid: credentials.client_secret is required"},
		{"token and app", `{"shop_domain":"example.myshopify.com","access_token":"t","client_id":"c1","client_secret":"s","location_id":"12"}`, "<nil> invalid: credentials.access_token is not a field of this channel type"},
		{"url as domain", `{"shop_domain":"https://example.myshopify.com","access_token":"t","location_id":"1"}`, "<nil> invalid: credentials.shop_domain must be the shop's host name, such as example.myshopify.com"},
		{"bad location", `{"shop_domain":"example.myshopify.com","access_token":"t","location_id":"warehouse"}`, "<nil> invalid: credentials.location_id must be a location id, such as gid://shopify/Location/123 or 123"},
		{"missing token", `{"shop_domain":"example.myshopify.com","location_id":"1"}`, "<nil> invalid: credentials.access_token is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Connector.ParseCredentials([]byte(tt.raw))
			if s := fmt.Sprint(got, " ", err); s != tt.want {
				t.Errorf("got %s, want %s", s, tt.want)
			}
		})
	}
}

func TestSKUQuery(t *testing.T) {
	t.Parallel()
	got, want := skuQuery([]string{"A-1", `B "2"`}), `sku:"A-1" OR sku:"B \"2\""`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestPaymentStatus(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]any{"PAID": "all", "PARTIALLY_PAID": "partial", "PARTIALLY_REFUNDED": "partial",
		"REFUNDED": "none", "PENDING": "none", "AUTHORIZED": "none", "VOIDED": "none", "EXPIRED": "none"} {
		if got := paymentStatus(&in); got != want {
			t.Errorf("%s: got %v, want %v", in, got, want)
		}
	}
}

// TestLineItemsByFulfillmentOrder: the shipped items go on open fulfillment orders'
// remaining quantities, one fulfillmentCreate per location; quantity no open one holds (a
// closed or on-hold fulfillment order's) fails the push, unless a fulfillment has the
// tracking number already (posted).
func TestLineItemsByFulfillmentOrder(t *testing.T) {
	t.Parallel()
	fo := func(id, status, loc string, lines ...[3]any) fulfillmentOrder {
		var f fulfillmentOrder
		f.ID, f.Status = id, status
		f.AssignedLocation.Location = &struct{ ID string }{loc}
		for _, l := range lines {
			n := struct {
				ID                string
				RemainingQuantity int64
				LineItem          struct{ ID string }
			}{ID: l[0].(string), RemainingQuantity: int64(l[2].(int))}
			n.LineItem.ID = l[1].(string)
			f.LineItems.Nodes = append(f.LineItems.Nodes, n)
		}
		return f
	}
	fos := []fulfillmentOrder{fo("FO1", "CLOSED", "X", [3]any{"a0", "L1", 0}), fo("FO2", "OPEN", "X", [3]any{"a1", "L1", 2}, [3]any{"b1", "L2", 1}),
		fo("FO3", "OPEN", "Y", [3]any{"a2", "L1", 1}), fo("FO4", "ON_HOLD", "Y", [3]any{"c1", "L3", 4})}
	tests := []struct {
		name   string
		items  []connectors.TrackingItem
		posted bool
		want   string
	}{
		{"one line, open first", []connectors.TrackingItem{{OrderItemRef: "L1", Quantity: 2}}, false, "[[map[fulfillmentOrderId:FO2 fulfillmentOrderLineItems:[map[id:a1 quantity:2]]]]] <nil>"},
		{"two locations, two calls", []connectors.TrackingItem{{OrderItemRef: "L1", Quantity: 3}, {OrderItemRef: "L2", Quantity: 1}}, false,
			"[[map[fulfillmentOrderId:FO2 fulfillmentOrderLineItems:[map[id:a1 quantity:2] map[id:b1 quantity:1]]]] [map[fulfillmentOrderId:FO3 fulfillmentOrderLineItems:[map[id:a2 quantity:1]]]]] <nil>"},
		{"more than remains", []connectors.TrackingItem{{OrderItemRef: "L2", Quantity: 2}}, false, "[] no open fulfillment order holds 1 of line item L2 (closed, cancelled or on hold, or shipped already)"},
		{"on hold", []connectors.TrackingItem{{OrderItemRef: "L3", Quantity: 1}}, false, "[] no open fulfillment order holds 1 of line item L3 (closed, cancelled or on hold, or shipped already)"},
		{"posted before", []connectors.TrackingItem{{OrderItemRef: "L3", Quantity: 1}}, true, "[] <nil>"},
		{"unknown line", []connectors.TrackingItem{{OrderItemRef: "L9", Quantity: 1}}, false, "[] no line item L9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := lineItemsByFulfillmentOrder(fos, tt.items, tt.posted)
			if s := fmt.Sprint(got, " ", err); s != tt.want {
				t.Errorf("got %s\nwant %s", s, tt.want)
			}
		})
	}
}
