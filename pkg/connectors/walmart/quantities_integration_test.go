package walmart_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/walmart"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/walmart"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// pushAll pushes listings (SKUs, the quantity of the i-th i+1) through the runtime in
// pushes of size at most and returns the listing results by SKU.
func pushAll(t *testing.T, f *fixture, skus []string, size int) map[string]map[string]any {
	t.Helper()
	rt := f.Runtime(10 * time.Second)
	for start := 0; start < len(skus); start += size {
		var msgs []connectors.Message
		for i := start; i < min(start+size, len(skus)); i++ {
			msgs = append(msgs, f.Quantity(skus[i], int64(i+1), 1))
		}
		rep := rt.Push(ctx(t, 3*time.Minute), msgs)
		connectorstest.WantOutcomes(t, rep, false)
	}
	out := map[string]map[string]any{}
	for _, r := range f.Inbox.TakeResults() {
		sku, _ := r["channel_sku"].(string)
		if out[sku] != nil {
			t.Errorf("listing %s answered twice", sku)
		}
		out[sku] = r
	}
	return out
}

// listings are n SKUs the seller has (with quantity 0) and unknown SKUs it does not.
func listings(f *fixture, prefix string, n, unknown int) []string {
	var skus []string
	for i := range n {
		sku := fmt.Sprintf("%s-%05d", prefix, i)
		f.sb.AddItem(seller, sku, 0)
		skus = append(skus, sku)
	}
	for i := range unknown {
		skus = append(skus, fmt.Sprintf("%s-UNKNOWN-%d", prefix, i))
	}
	return skus
}

// checkResults checks that every listing ended synced at its quantity, or, for one the
// seller does not have, failed with Walmart's message.
func checkResults(t *testing.T, f *fixture, skus []string, got map[string]map[string]any) {
	t.Helper()
	if len(got) != len(skus) {
		t.Errorf("%d listings answered, want %d", len(got), len(skus))
	}
	for i, sku := range skus {
		r := got[sku]
		q, listed := f.sb.Quantity(seller, sku)
		switch {
		case r == nil:
			t.Errorf("%s: no result", sku)
		case !listed:
			if r["ok"] == true || !strings.Contains(fmt.Sprint(r["error"]), "Item not found for the SKU "+sku) {
				t.Errorf("%s (not the seller's): result %v, want failed with Walmart's message", sku, r)
			}
		case r["ok"] != true || q != int64(i+1):
			t.Errorf("%s: result %v, Walmart shows %d; want synced at %d", sku, r, q, i+1)
		}
	}
}

// TestQuantities: 100 listings by single updates (pushes of FeedThreshold) and 2,000 by one
// bulk inventory feed: every listing ends synced, or failed with Walmart's message when
// Walmart does not have it; no call over a limit (the sandbox holds the connector's and the
// feed's published 10 an hour).
func TestQuantities(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	f := newFixture(t)
	single := listings(f, "ONE", 98, 2)
	checkResults(t, f, single, pushAll(t, f, single, walmart.FeedThreshold))
	if got := f.sb.Calls(sbx.OpUpdateItem); got != len(single) {
		t.Errorf("%d updateInventoryForAnItem for %d listings, want one each", got, len(single))
	}
	bulk := listings(f, "FEED", 1995, 5)
	checkResults(t, f, bulk, pushAll(t, f, bulk, len(bulk)))
	if got := f.sb.Calls(sbx.OpBulkInventory); got != 1 {
		t.Errorf("%d feeds for 2,000 listings, want one", got)
	}
	connectorstest.WantUnder(t, f.sb, sbx.OpUpdateItem, sbx.OpBulkInventory, sbx.OpFeedItemStatus, sbx.OpFeedStatuses, sbx.OpToken)
}

// TestFeedInFlight: a push whose feed is not processed within FeedWait is put off; its
// retry waits for that feed before it sends the next, so the newest quantities win.
func TestFeedInFlight(t *testing.T) {
	testenv.SkipShort(t)
	f := newFixture(t)
	f.sb.FeedDelay = time.Hour
	skus := listings(f, "SLOW", walmart.FeedThreshold+1, 0)
	var batch []connectors.QuantityPush
	for _, sku := range skus {
		batch = append(batch, connectors.QuantityPush{ChannelSKU: sku, Quantity: 7})
	}
	s, err := f.Runtime(10*time.Second).Session(ctx(t, time.Minute), f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	before := walmart.FeedWait
	walmart.FeedWait = 0
	t.Cleanup(func() { walmart.FeedWait = before })
	_, err = walmart.Connector.PushQuantities(ctx(t, time.Minute), s, batch)
	var th *connectors.Throttled
	if !asThrottled(err, &th) {
		t.Fatalf("a feed not processed: %v, want Throttled", err)
	}
	_, err = walmart.Connector.PushQuantities(ctx(t, time.Minute), s, batch)
	if !asThrottled(err, &th) || f.sb.Calls(sbx.OpBulkInventory) != 1 {
		t.Errorf("the retry with a feed in flight: %v and %d feeds, want Throttled and one feed", err, f.sb.Calls(sbx.OpBulkInventory))
	}
}

// asThrottled reports whether err is a *connectors.Throttled, setting th.
func asThrottled(err error, th **connectors.Throttled) bool { return errors.As(err, th) }
