package shopify

import (
	"encoding/json"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
)

// The parsers of Shopify's answers take any bytes without panicking, and what they accept
// is well-formed: go test -fuzz=FuzzX ./pkg/connectors/shopify/.

func FuzzEnvelope(f *testing.F) {
	f.Add([]byte(`{"data":{"shop":{"name":"x"}},"extensions":{"cost":{"requestedQueryCost":3,"throttleStatus":{"maximumAvailable":100,"currentlyAvailable":97,"restoreRate":50}}}}`))
	f.Add([]byte(`{"errors":[{"message":"Throttled","extensions":{"code":"THROTTLED"}}]}`))
	f.Add([]byte(`{"errors":"[API] Invalid API key"}`))
	f.Add([]byte(`{"errors":[]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_, list, err := decodeEnvelope(body)
		if err != nil && list != nil {
			t.Errorf("an error with errors %v", list)
		}
	})
}

func FuzzOrdersAnswer(f *testing.F) {
	f.Add([]byte(`{"orders":{"nodes":[{"id":"gid://shopify/Order/1","name":"#1001","processedAt":"2026-11-01T10:00:00Z","updatedAt":"2026-11-01T10:00:00Z","displayFinancialStatus":"PAID","totalPriceSet":{"shopMoney":{"amount":"10.00"}},"shippingAddress":{"name":"A","countryCodeV2":"US"},"lineItems":{"nodes":[{"id":"gid://shopify/LineItem/2","sku":"A","quantity":1,"currentQuantity":0}]}}],"pageInfo":{"hasNextPage":false}}}`))
	f.Add([]byte(`{"orders":{"nodes":[{"id":"","name":""}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := parseOrders("ch", data)
		if err != nil {
			return
		}
		for _, d := range docs {
			var m map[string]any
			if err := json.Unmarshal(d, &m); err != nil || m["display_ref"] == "" || m["channel_uuid"] != "ch" {
				t.Errorf("document %s: %v", d, err)
			}
		}
	})
}

func FuzzVariantsAnswer(f *testing.F) {
	f.Add([]byte(`{"productVariants":{"nodes":[{"sku":"A","inventoryItem":{"id":"gid://shopify/InventoryItem/1","inventoryLevel":{"quantities":[{"name":"available","quantity":3}]}}},{"sku":null,"inventoryItem":{"id":""}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a variantsAnswer
		if json.Unmarshal(data, &a) != nil {
			return
		}
		for sku, l := range a.levels() {
			if sku == "" || l.item == "" {
				t.Errorf("level %q %+v", sku, l)
			}
		}
	})
}

func FuzzSetAnswer(f *testing.F) {
	f.Add([]byte(`{"inventorySetQuantities":{"userErrors":[{"code":"CHANGE_FROM_QUANTITY_STALE","field":["input","quantities","1","changeFromQuantity"],"message":"stale"}]}}`), 2)
	f.Add([]byte(`{"inventorySetQuantities":{"userErrors":[{"field":["input","quantities","-1"]}]}}`), 1)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		var a setAnswer
		if json.Unmarshal(data, &a) != nil || a.Set == nil {
			return
		}
		for _, e := range a.Set.UserErrors {
			if i, ok := e.index(n); ok && (i < 0 || i >= n) {
				t.Errorf("index %d of %d", i, n)
			}
		}
	})
}

func FuzzFulfillmentOrdersAnswer(f *testing.F) {
	f.Add([]byte(`{"orders":{"nodes":[{"id":"o","name":"#1","fulfillmentOrders":{"nodes":[{"id":"fo","status":"OPEN","assignedLocation":{"location":{"id":"loc"}},"lineItems":{"nodes":[{"id":"fl","remainingQuantity":2,"lineItem":{"id":"L1"}}]}}]}}]}}`), "L1", int64(3))
	f.Fuzz(func(t *testing.T, data []byte, ref string, q int64) {
		var a fulfillmentOrdersAnswer
		if json.Unmarshal(data, &a) != nil || len(a.Orders.Nodes) == 0 {
			return
		}
		calls, err := lineItemsByFulfillmentOrder(a.Orders.Nodes[0].FulfillmentOrders.Nodes, []connectors.TrackingItem{{OrderItemRef: ref, Quantity: q}}, false)
		if err == nil && len(calls) == 0 {
			t.Error("no error and no fulfillment")
		}
	})
}
