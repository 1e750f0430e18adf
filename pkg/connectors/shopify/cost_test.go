package shopify

import (
	"fmt"
	"testing"
)

// TestQueryCost: Shopify's published rules of the requested cost (docs/connectors.md, "Query
// cost"): scalars 0, objects 1, a connection 2 and per node 1 and its selection (nested
// connections multiply), a list sized by first likewise, a mutation 10; fragments add.
func TestQueryCost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, query string
		vars        map[string]any
		want        int
	}{
		{"scalars of an object", `{ shop { name id } }`, nil, 1},
		{"a connection", `{ products(first: 10) { nodes { title } pageInfo { hasNextPage } } }`, nil, 12},
		{"edges", `{ products(last: 10) { edges { cursor node { title } } } }`, nil, 12},
		{"objects of nodes", `{ products(first: 10) { nodes { featuredMedia { id } } } }`, nil, 22},
		{"nested connections multiply", `{ orders(first: 150) { nodes { id lineItems(first: 50) { nodes { sku } } } } }`, nil, 2 + 150*(1+2+50)},
		{"a variable", `query Q($n: Int!) { orders(first: $n) { nodes { id } } }`, map[string]any{"n": 7}, 9},
		{"a list sized by first", `{ order(id: "x") { fulfillments(first: 10) { trackingInfo(first: 5) { number } } } }`, nil, 1 + 2 + 10*(1+2+5)},
		{"a fragment", `{ order(id: "x") { shippingAddress { ...a } } } fragment a on MailingAddress { city country { code } }`, nil, 3},
		{"a mutation", `mutation { fulfillmentCreate(fulfillment: {}) { fulfillment { id } userErrors { message } } }`, nil, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := queryCost(tt.query, tt.vars); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

// TestQueriesWithinLimit: every query of the connector, at the sizes it sends, requests at
// most the single query limit, the pages as large as that allows.
func TestQueriesWithinLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		query string
		vars  map[string]any
	}{
		{"orders", ordersQuery, map[string]any{"first": ordersPage, "lines": orderLines}},
		{"lines", linesQuery, map[string]any{"first": linesPage}},
		{"fulfillment orders", fulfillmentOrdersQuery, map[string]any{"orders": fulfillmentOrdersPage, "lines": fulfillmentLines}},
		{"variants", variantsQuery, map[string]any{"first": quantityBatch}},
		{"verify", verifyQuery, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := queryCost(tt.query, tt.vars)
			t.Logf("%s: requested cost %d", tt.name, got)
			if got > maxQueryCost {
				t.Errorf("requested cost %d, over %d", got, maxQueryCost)
			}
		})
	}
	if got := fmt.Sprint(ordersPage, linesPage, fulfillmentLines); got != "7 79 28" {
		t.Errorf("page sizes %s", got)
	}
}
