package shopify_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/listings"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestShopifyOnTheStack: through the local stack, a Shopify channel connected with
// POST /channels (the connector verifies the token and the location) gets its listing's
// quantity in the sandbox shop, synced (the listing then keeps its inventory item, and the
// next push is one mutation), and its orders imported by the scheduled poll; a
// cancellation in Shopify cancels ours.
func TestShopifyOnTheStack(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	token := "shpat_" + store.NewID()
	location := sb.AddShop(token, "stack.myshopify.com")
	item := sb.AddVariant(token, "SHOP-1", 0)

	bad := map[string]any{"channel": map[string]any{"name": "My Shopify", "type": "Shopify",
		"credentials": map[string]any{"shop_domain": "stack.myshopify.com", "access_token": "wrong", "location_id": location},
		"endpoints":   map[string]any{"api": sb.URL}}}
	if r := f.C.Do(http.MethodPost, "/channels", bad); r.Status == http.StatusCreated {
		t.Fatalf("a wrong token connected: %s", r)
	}
	body := map[string]any{"channel": map[string]any{"name": "My Shopify", "type": "Shopify",
		"credentials": map[string]any{"shop_domain": "stack.myshopify.com", "access_token": token, "location_id": location},
		"endpoints":   map[string]any{"api": sb.URL}}}
	ch := f.C.ConnectChannel(body).UUID

	wh := f.Warehouse("A")
	f.Product("SHOP-1")
	f.Stock("SHOP-1", wh, 7)
	if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch, "channel_sku": "SHOP-1", "sku": "SHOP-1"}}); r.Status != http.StatusOK {
		t.Fatalf("link: %d %s", r.Status, r)
	}
	listing := func() (l listings.Listing) {
		var ls []listings.Listing
		f.C.Do(http.MethodGet, "/listings?channel_uuid="+ch, nil).JSON(t, &ls)
		if len(ls) == 1 {
			l = ls[0]
		}
		return l
	}
	synced := func(want int64) func() bool {
		return func() bool {
			q, _ := sb.Available(token, item)
			return q == want && listing().SyncStatus == "synced"
		}
	}
	testenv.WaitFor(t, synced(7), "the shop's variant at 7, the listing synced")
	// The listing keeps the inventory item the look-up found: the next push is one mutation,
	// comparing with the quantity last reported.
	testenv.WaitFor(t, func() bool {
		ref := listing().ListingRef
		return ref != nil && *ref == item
	}, "the listing's ref is the inventory item")
	f.Adjust("SHOP-1", wh, 4)
	testenv.WaitFor(t, synced(4), "the shop's variant at 4, the listing synced")
	if got := countOps(sb); got != "productVariants 1 inventorySetQuantities 2" {
		t.Errorf("calls: %s, want one look-up, then a mutation per push", got)
	}

	o := sb.PutOrder(token, time.Now(), sbx.LineInput{SKU: "SHOP-1", Quantity: 2, Price: "9.50"})
	// A poll of the channel, in a slot of its own (a slot is polled once); one under way
	// makes the next Busy, so the waits below poll again until they see the change.
	slot := time.Now()
	poll := func() {
		slot = slot.Add(connectors.PollEvery)
		ref := connectors.ChannelRef{Account: f.Acct.ID, UUID: ch}
		if err := f.Env.Deps.Connectors().Enqueue(context.Background(), ref, slot); err != nil {
			t.Fatal(err)
		}
	}
	poll()
	testenv.WaitFor(t, func() bool { return len(f.List("/orders")) == 1 }, "the Shopify order imported")
	got := f.List("/orders")[0]
	if got.DisplayRef != o.Name || len(got.Items) != 1 || got.Items[0].OrderItemRef != o.Lines[0].ID || got.Items[0].Quantity != 2 {
		t.Fatalf("imported %+v", got)
	}
	now := time.Now()
	sb.ChangeOrder(token, o.ID, now, sbx.Cancel(now))
	testenv.WaitFor(t, func() bool {
		poll()
		return f.Order(got.Seq).Status == "cancelled"
	}, "the cancellation imported")
	validateRequests(t, sb)
}
