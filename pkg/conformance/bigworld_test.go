package conformance_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/testenv"
)

// bigN is one more than the largest page: every list of the big world is longer.
const bigN = 101

// newBigWorld creates an account with bigN channels, warehouses, products, variation
// groups, inventory records, listings (on its last channel, one per product) and open
// orders allocated at its first warehouse (so its fulfillments list is as long), and one
// applied adjustment.
func newBigWorld(t *testing.T) (*caller, ids) {
	t.Helper()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := newCaller(t, env, acct)
	ctx := context.Background()

	var ch channels.Channel
	for i := range bigN {
		var err error
		if ch, err = env.Deps.Channels().Create(ctx, acct.ID, channels.Input{Name: fmt.Sprintf("Shop %d", i), Type: "Shopify"}); err != nil {
			t.Fatalf("create channel: %v", err)
		}
	}
	var first string
	for i := range bigN {
		var wh struct {
			UUID string `json:"warehouse_uuid"`
		}
		c.must(http.StatusOK, http.MethodPost, "/warehouses", map[string]any{"warehouse": map[string]any{"name": fmt.Sprintf("W%03d", i)}}, &wh)
		if i == 0 {
			first = wh.UUID
		}
	}
	sku := func(prefix string, i int) string { return fmt.Sprintf("%s-%03d", prefix, i) }
	var stock []any
	for i := range bigN {
		c.must(http.StatusOK, http.MethodPut, "/products/"+sku("p", i), map[string]any{
			"name": "Product " + sku("p", i), "custom_attributes": map[string]any{"color": sku("c", i)}}, nil)
		c.must(http.StatusOK, http.MethodPut, "/variation_groups/"+sku("g", i), map[string]any{
			"name": "Group " + sku("g", i), "child_skus": []string{sku("p", i)}, "variation_attributes": []string{"color"}}, nil)
		onHand := 1
		if i == 0 {
			onHand = 10 * bigN
		}
		stock = append(stock, map[string]any{"sku": sku("p", i), "warehouse_uuid": first, "on_hand": onHand})
	}
	// Listings through the service, as the channels: their channel SKUs are the
	// products' SKUs, so each links itself to its product.
	for i := range bigN {
		if _, err := env.Deps.Listings().Put(ctx, acct.ID, listings.Input{ChannelUUID: ch.UUID, ChannelSKU: sku("p", i)}); err != nil {
			t.Fatalf("create listing: %v", err)
		}
	}
	for len(stock) > 0 {
		n := min(len(stock), 50)
		c.must(http.StatusCreated, http.MethodPost, "/inventory", map[string]any{"inventory": stock[:n]}, nil)
		stock = stock[n:]
	}
	docs := make([]any, bigN)
	for i := range docs {
		docs[i] = map[string]any{"channel_uuid": ch.UUID, "display_ref": sku("BIG", i),
			"ordered_at": fmt.Sprintf("2024-01-01T00:%02d:%02dZ", i/60, i%60),
			"items":      []any{map[string]any{"order_item_ref": "1", "sku": sku("p", 0), "quantity": 2}}}
	}
	seqs := importOrders(t, env, acct.ID, docs...)
	for _, seq := range seqs { // a shipment of half of each order: GET /shipments has more than
		// 100, and the orders stay to fulfill
		c.must(http.StatusOK, http.MethodPost, "/shipments", map[string]any{"shipment": map[string]any{
			"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": fmt.Sprint("1Z", seq),
			"items": []any{map[string]any{"sku": sku("p", 0), "quantity": 1}}}}, nil)
	}
	var adj struct {
		RequestID string `json:"request_id"`
	}
	c.must(http.StatusOK, http.MethodPut, "/inventory", map[string]any{"inventory": []any{map[string]any{
		"sku": sku("p", 1), "warehouse_uuid": first, "on_hand": 2}}}, &adj)
	for i := range bigN { // the history of p-000 at the first warehouse: more than 100 changes
		c.must(http.StatusOK, http.MethodPatch, "/inventory", map[string]any{"inventory": []any{map[string]any{
			"sku": sku("p", 0), "warehouse_uuid": first, "on_hand_delta": 1 - 2*(i%2), "reason": "counted"}}}, nil)
	}
	webhook, delivery := addWebhook(t, c)
	env.Drain(t)
	settled(t, c)
	return c, ids{Warehouse: first, Product: sku("p", 0), Child: sku("p", 0), Group: sku("g", 0), Seq: seqs[0], RequestID: adj.RequestID,
		Channel: ch.UUID, Listing: sku("p", 0), Webhook: webhook, Delivery: delivery}
}
