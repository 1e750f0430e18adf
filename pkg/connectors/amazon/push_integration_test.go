package amazon_test

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/wire"
)

// listings puts n listings SKU-0.. in the sandbox (quantity 0), SKU-0 fulfilled by Amazon,
// and returns the outbox messages that show quantity 10+i on each.
func (f *fixture) listings(n int) []connectors.Message {
	var msgs []connectors.Message
	for i := range n {
		sku := fmt.Sprintf("SKU-%03d", i)
		f.sb.PutListing(sellerID, amazonsb.Listing{SKU: sku, FBA: i == 0, Quantity: map[bool]int64{true: 7}[i == 0]})
		msgs = append(msgs, f.Quantity(sku, int64(10+i), 1))
	}
	return msgs
}

// checkPushed checks that every listing's result came, ok with the sandbox showing its
// quantity, but SKU-000's, off as fulfilled by Amazon (the listing.result's off) with
// Amazon's quantity untouched.
func (f *fixture) checkPushed(t *testing.T, n int) {
	t.Helper()
	results := map[string]map[string]any{}
	for _, r := range f.Inbox.TakeResults() {
		results[r["channel_sku"].(string)] = r
	}
	if len(results) != n {
		t.Fatalf("%d results, want %d", len(results), n)
	}
	for i := range n {
		sku := fmt.Sprintf("SKU-%03d", i)
		q, _ := f.sb.Quantity(sellerID, sku)
		if i == 0 {
			if off, _ := results[sku]["off"].(string); q != 7 || results[sku]["ok"] != false || !strings.Contains(off, "fulfilled by Amazon (AMAZON_NA)") {
				t.Errorf("FBA listing: result %v, quantity %d, want off as fulfilled by Amazon and Amazon's 7", results[sku], q)
			}
			continue
		}
		if results[sku]["ok"] != true || q != int64(10+i) {
			t.Errorf("%s: result %v, sandbox %d, want ok and %d", sku, results[sku], q, 10+i)
		}
	}
}

// TestPatches: 100 listings' quantities reach the sandbox as 100 patches at the published
// limit of patchListingsItem (5/s, burst 5), none over it; each ends ok with the sandbox's
// quantity equal to ours; the FBA listing is read once and answered Off.
func TestPatches(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{FeedThreshold: 1000}, nil)
	c := ctx(t, 2*time.Minute)
	msgs := f.listings(100)
	rep := f.Runtime(0).Push(c, msgs)
	connectorstest.WantOutcomes(t, rep, false)
	f.checkPushed(t, 100)
	if got := f.sb.Calls(amazon.OpPatchListingsItem); got != 100 {
		t.Errorf("%d patches, want 100", got)
	}
	if got := f.sb.Calls(amazon.OpGetListingsItem); got != 1 {
		t.Errorf("%d getListingsItem, want 1 (the FBA listing's)", got)
	}
	connectorstest.WantUnder(t, f.sb, amazon.OpPatchListingsItem)
}

// TestQuantityResults: the connector's own results (which the runtime's messages carry
// after the merge): ok with the quantity, Off for an FBA listing, Amazon's message for an
// unknown SKU, by patches and by a feed (its report GZIP-compressed) alike.
func TestQuantityResults(t *testing.T) {
	t.Parallel()
	for _, threshold := range []int{10, 1} {
		t.Run(fmt.Sprintf("threshold %d", threshold), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, &amazon.Connector{FeedThreshold: threshold, FeedPoll: 100 * time.Millisecond}, nil)
			f.sb.GzipReports = threshold == 1 // the feed's report comes GZIP-compressed
			f.sb.PutListing(sellerID, amazonsb.Listing{SKU: "MFN-1"})
			f.sb.PutListing(sellerID, amazonsb.Listing{SKU: "FBA-1", FBA: true, Quantity: 3})
			got, err := f.conn.PushQuantities(ctx(t, time.Minute), f.session(t), []connectors.QuantityPush{
				{ChannelSKU: "MFN-1", Quantity: 4}, {ChannelSKU: "FBA-1", Quantity: 5}, {ChannelSKU: "NOPE", Quantity: 6}})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 {
				t.Fatalf("%d results", len(got))
			}
			if r := got[0]; !r.OK || r.ChannelQuantity != 4 || r.ChannelSKU != "MFN-1" {
				t.Errorf("MFN-1: %+v", r)
			}
			if r := got[1]; r.OK || !strings.Contains(r.Off, "fulfilled by Amazon (AMAZON_NA)") {
				t.Errorf("FBA-1: %+v, want off", r)
			}
			if r := got[2]; r.OK || !strings.Contains(r.Error, "SKU NOPE was not found") {
				t.Errorf("NOPE: %+v, want Amazon's message", r)
			}
			if q, _ := f.sb.Quantity(sellerID, "FBA-1"); q != 3 {
				t.Errorf("FBA-1 shows %d, want Amazon's 3", q)
			}
			if feeds := f.sb.Calls(amazon.OpCreateFeed); (threshold == 1) != (feeds == 1) {
				t.Errorf("%d feeds at threshold %d", feeds, threshold)
			}
		})
	}
}

// TestFeed: above the threshold, 100 listings go as one JSON_LISTINGS_FEED (published feed
// limits); the report gives each its result. A feed not done in time puts the push off
// (never failed), and the retry reads that feed rather than sending a second one.
func TestFeed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{FeedThreshold: 50, FeedPoll: 200 * time.Millisecond, FeedWait: 2 * time.Second}, nil)
	c := ctx(t, 2*time.Minute)
	msgs := f.listings(100)
	f.sb.FeedDelay = 3 * time.Second
	rep := f.Runtime(0).Push(c, msgs)
	connectorstest.WantOutcomes(t, rep, true)
	if got := f.Inbox.TakeResults(); len(got) != 0 {
		t.Fatalf("%d results of a feed not done, want none", len(got))
	}
	time.Sleep(1500 * time.Millisecond)
	rep = f.Runtime(0).Push(c, msgs)
	connectorstest.WantOutcomes(t, rep, false)
	f.checkPushed(t, 100)
	if got := f.sb.Calls(amazon.OpCreateFeed); got != 1 {
		t.Errorf("%d feeds, want 1", got)
	}
	if got := f.sb.Calls(amazon.OpPatchListingsItem); got != 0 {
		t.Errorf("%d patches beside the feed, want none", got)
	}
	connectorstest.WantUnder(t, f.sb, slices.Collect(maps.Keys(amazon.Published))...)
}

// TestTracking: a shipment posts one confirmation with its order item ids, quantities and
// Amazon's carrier code; the sandbox refusing it answers it failed with Amazon's message,
// and the retry posts it.
func TestTracking(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, nil)
	c := ctx(t, time.Minute)
	f.order("115-0000001-0000001", "Unshipped", time.Now().Add(-time.Hour), "SKU-A", "SKU-B")
	msg := f.tracking("115-0000001-0000001", "ship-1", "United Parcel Service",
		wire.TrackingItem{OrderItemRef: "115-0000001-0000001-1", SKU: "SKU-A", Quantity: 1},
		wire.TrackingItem{OrderItemRef: "115-0000001-0000001-2", SKU: "SKU-B", Quantity: 1})
	f.sb.RefuseNext(amazon.OpConfirmShipment, amazonsb.Error{Code: "InvalidInput", Message: "Invalid carrier code"})
	f.Runtime(0).Push(c, []connectors.Message{msg})
	res := f.Inbox.TakeResults()
	if len(res) != 1 || res[0]["ok"] != false || !strings.Contains(fmt.Sprint(res[0]["error"]), "InvalidInput: Invalid carrier code") {
		t.Fatalf("refused: %v, want failed with Amazon's message", res)
	}
	if got := f.sb.Confirmations(sellerID, "115-0000001-0000001"); len(got) != 0 {
		t.Fatalf("%d confirmations after a refusal", len(got))
	}
	f.Runtime(0).Push(c, []connectors.Message{msg})
	if res := f.Inbox.TakeResults(); len(res) != 1 || res[0]["ok"] != true {
		t.Fatalf("retry: %v, want ok", res)
	}
	got := f.sb.Confirmations(sellerID, "115-0000001-0000001")
	if len(got) != 1 {
		t.Fatalf("%d confirmations, want 1", len(got))
	}
	// The shipment's retry (its result lost, say) is the same package: the same number.
	f.Runtime(0).Push(c, []connectors.Message{msg})
	if res := f.Inbox.TakeResults(); len(res) != 1 || res[0]["ok"] != true {
		t.Fatalf("second push of the shipment: %v, want ok", res)
	}
	if again := f.sb.Confirmations(sellerID, "115-0000001-0000001"); len(again) != 1 {
		t.Fatalf("%d confirmations after the shipment's retry, want 1", len(again))
	}
	p := got[0]
	if n, err := strconv.ParseUint(p.PackageReferenceID, 10, 63); err != nil || n == 0 {
		t.Errorf("packageReferenceId %q, want a positive number", p.PackageReferenceID)
	}
	if p.CarrierCode != "UPS" || p.ShipDate != "2026-11-20T15:04:05Z" || len(p.OrderItems) != 2 ||
		p.OrderItems[0].OrderItemID != "115-0000001-0000001-1" || p.OrderItems[0].Quantity != 1 || p.OrderItems[1].OrderItemID != "115-0000001-0000001-2" {
		t.Errorf("confirmation %+v", p)
	}
	// A Pending order is not shippable: Amazon's refusal is the shipment's failure.
	f.order("115-0000002-0000001", "Pending", time.Now().Add(-time.Hour), "SKU-A")
	err := f.conn.PostTracking(c, f.session(t), connectors.Tracking{DisplayRef: "115-0000002-0000001", ShipmentID: "ship-2",
		CarrierName: "Some Local Courier", TrackingNumber: "X1", ShippedAt: "2026-11-20T15:04:05Z",
		Items: []connectors.TrackingItem{{OrderItemRef: "115-0000002-0000001-1", Quantity: 1}}})
	if err == nil || !strings.Contains(err.Error(), "is Pending and cannot be confirmed") {
		t.Errorf("confirmation of a Pending order: %v", err)
	}
}

// TestThrottled: 429s of patchListingsItem beyond the runtime's wait put the push off (no
// result, never failed); once Amazon lets it, the push goes through.
func TestThrottled(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, nil)
	c := ctx(t, time.Minute)
	msgs := f.listings(3)
	f.sb.ThrottleNext(amazon.OpPatchListingsItem, 1, 3*time.Second)
	rep := f.Runtime(time.Second).Push(c, msgs)
	connectorstest.WantOutcomes(t, rep, true)
	if got := f.Inbox.TakeResults(); len(got) != 0 {
		t.Fatalf("%d results of a throttled push", len(got))
	}
	time.Sleep(time.Until(rep.Outcomes[0].RetryAt))
	rep = f.Runtime(0).Push(c, msgs)
	connectorstest.WantOutcomes(t, rep, false)
	f.checkPushed(t, 3)
}

// TestHandlingTimeKept: the seller's handling time (lead_time_to_ship_max_days) survives 20
// pushes of the listing's quantity, by patches and by a feed: the patch merges
// fulfillment_availability, which a replace would clear.
func TestHandlingTimeKept(t *testing.T) {
	t.Parallel()
	for _, threshold := range []int{1000, 1} {
		t.Run(fmt.Sprintf("threshold %d", threshold), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, &amazon.Connector{FeedThreshold: threshold, FeedPoll: 50 * time.Millisecond}, map[string]connectors.Limit{
				amazon.OpCreateFeedDocument: {Rate: 100, Burst: 100}, amazon.OpCreateFeed: {Rate: 100, Burst: 100},
				amazon.OpGetFeeds: {Rate: 100, Burst: 100}, amazon.OpGetFeedDocument: {Rate: 100, Burst: 100}})
			days := int64(3)
			f.sb.PutListing(sellerID, amazonsb.Listing{SKU: "MFN-1", Quantity: 1, HandlingDays: &days})
			f.sb.PutListing(sellerID, amazonsb.Listing{SKU: "MFN-2", Quantity: 1})
			c := ctx(t, time.Minute)
			for i := range 20 {
				got, err := f.conn.PushQuantities(c, f.session(t), []connectors.QuantityPush{
					{ChannelSKU: "MFN-1", Quantity: int64(10 + i)}, {ChannelSKU: "MFN-2", Quantity: int64(i)}})
				if err != nil || len(got) != 2 || !got[0].OK {
					t.Fatalf("push %d: %+v, %v", i+1, got, err)
				}
			}
			if q, _ := f.sb.Quantity(sellerID, "MFN-1"); q != 29 {
				t.Errorf("quantity %d, want the last pushed, 29", q)
			}
			if got, ok := f.sb.HandlingDays(sellerID, "MFN-1"); !ok || got != 3 {
				t.Errorf("handling time after 20 pushes: %d (%v), want the seller's 3", got, ok)
			}
		})
	}
}
