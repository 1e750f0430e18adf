package channels_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestConnectedChannelLimits: 200 listings of a channel connected through POST /v1/channels,
// on a sandbox publishing 1 call/s for quantities and answering 429 + Retry-After on the way,
// all end synced at the formula's quantity, with no call over the limit and no push failed.
func TestConnectedChannelLimits(t *testing.T) {
	t.Parallel()
	const n = 200
	f := orderstest.New(t)
	sb := marketplace(t)
	sb.SetLimit(sandbox.OpInventory, 1, 1)
	overBefore := sb.Over(sandbox.OpInventory)
	seller, ch := connectSeller(t, f, sb)

	wh := f.Warehouse("A")
	var stock []any
	for i := range n {
		sku := fmt.Sprintf("LIM-%03d", i)
		f.Product(sku)
		stock = append(stock, map[string]any{"sku": sku, "warehouse_uuid": wh, "on_hand": i + 1})
	}
	for len(stock) > 0 {
		k := min(len(stock), 50)
		if r := f.C.Do(http.MethodPost, "/inventory", map[string]any{"inventory": stock[:k]}); r.Status != http.StatusCreated {
			t.Fatalf("stock: %d %s", r.Status, r)
		}
		stock = stock[k:]
	}
	sb.ThrottleNext(sandbox.OpInventory, 2, 2*time.Second)
	for i := range n {
		sku := fmt.Sprintf("LIM-%03d", i)
		if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch, "channel_sku": sku, "sku": sku}}); r.Status != http.StatusOK {
			t.Fatalf("link %s: %d %s", sku, r.Status, r)
		}
	}
	all := func() []listings.Listing {
		var out []listings.Listing
		for page := 1; ; page++ {
			var ls []listings.Listing
			f.C.Do(http.MethodGet, fmt.Sprintf("/listings?channel_uuid=%s&limit=100&page=%d", ch, page), nil).JSON(t, &ls)
			if len(ls) == 0 {
				return out
			}
			out = append(out, ls...)
		}
	}
	deadline := time.Now().Add(150 * time.Second)
	for {
		synced := 0
		for _, l := range all() {
			if l.SyncStatus == "failed" {
				t.Fatalf("listing %s failed: %v", l.ChannelSKU, l.SyncError)
			}
			if l.SyncStatus == "synced" {
				synced++
			}
		}
		if synced == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d listings synced after 150 s", synced, n)
		}
		time.Sleep(500 * time.Millisecond)
	}
	for i := range n {
		if q, ok := sb.Quantity(seller, fmt.Sprintf("LIM-%03d", i)); !ok || q != int64(i+1) {
			t.Errorf("LIM-%03d shows %d (%v) on the sandbox, want %d", i, q, ok, i+1)
		}
	}
	if got := sb.Over(sandbox.OpInventory) - overBefore; got != 0 {
		t.Errorf("%d calls over the published limit", got)
	}
	var feed struct {
		Events []any `json:"events"`
	}
	f.C.Do(http.MethodGet, "/events?type=listing.sync_failed", nil).JSON(t, &feed)
	if len(feed.Events) != 0 {
		t.Errorf("%d listing.sync_failed events, want none", len(feed.Events))
	}
}
