package listings_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// BenchmarkStockChange: one stock change of a SKU listed on two channels,
// end to end on the local stack: PUT /inventory, the adjustment applied,
// the stream, the channel-sync function, the outbox, the connector sim's
// confirmation. It reports the channel-sync function's DynamoDB calls and
// capacity per change, the outbox messages per change, and the time from
// the accepted request, and from the applied record reaching the function,
// to the outbox message, and from the accepted request to a client polling
// GET /listings (every 20 ms) seeing both listings synced (p50 and p99).
// Each change comes a push interval after the last (a change within it
// waits for the hold's end: BenchmarkStockBurst counts those).
func BenchmarkStockChange(b *testing.B) {
	w := newWorld(b)
	w.waitSynced(wanted(15))
	inv, lst := store.PK(w.Acct.ID, "INV"), store.PK(w.Acct.ID, "LST")
	var (
		mu                sync.Mutex
		cost              testenv.SyncCost
		applied, sent, at time.Time // the applied record's batch start and end; the first send
	)
	w.Env.ObserveSync(b, func(sb testenv.SyncBatch) {
		mu.Lock()
		defer mu.Unlock()
		ours := false
		for _, r := range sb.Records {
			pk := r.Change.Keys["PK"].String()
			switch {
			case pk == inv && strings.HasPrefix(r.Change.Keys["SK"].String(), "P"+store.Sep):
				ours = true
				if applied.IsZero() {
					applied, at = sb.Start, sb.End
				}
			case pk == lst:
				ours = true
				if sends(r) {
					cost.Messages++
					if sent.IsZero() {
						// A version that went at once was sent by the pass
						// that wrote it (this record's send is deduplicated).
						sent = sb.End
						if !held(r.Change.OldImage) && !applied.IsZero() {
							sent = at
						}
					}
				}
			}
		}
		if ours {
			cost.Add(sb)
		}
	})
	n := 0
	for b.Loop() {
		b.StopTimer()
		time.Sleep(listings.DefaultPushInterval)
		b.StartTimer()
		onHand := 2 + 2*(n%2) // P available 7 or 9: both listings move
		mu.Lock()
		applied, sent = time.Time{}, time.Time{}
		mu.Unlock()
		start := time.Now()
		w.must(http.MethodPut, "/inventory", map[string]any{"inventory": map[string]any{"sku": "P", "warehouse_uuid": w.A, "on_hand": onHand}})
		want := wanted(int64(onHand) + 5)
		testenv.WaitFor(b, func() bool {
			time.Sleep(20 * time.Millisecond)
			return seen(w.listings(""), want)
		}, "a client seeing the listings synced")
		seenAt := time.Since(start)
		w.waitSynced(want)
		mu.Lock()
		cost.Observe("accepted-to-synced", seenAt)
		if !sent.IsZero() {
			cost.Observe("accepted-to-outbox", sent.Sub(start))
			cost.Observe("applied-to-outbox", sent.Sub(applied))
		}
		n++
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	cost.Report(b, n)
}

// BenchmarkStockBurst: 500 adjustments of one SKU, one request each as
// fast as one client sends them, end with both listings synced at the
// final quantity; it reports the listing.quantity messages the listing
// showing the SKU's whole stock got per burst (msgs/burst: the push
// interval, doubling while the changes go on, folds them into a few)
// and the burst's length, from its first request to both listings synced,
// and how often the two stream functions ran meanwhile (invocations a
// second).
func BenchmarkStockBurst(b *testing.B) {
	w := newWorld(b)
	w.waitSynced(wanted(15))
	messages := w.messageCount(b, w.Amazon) // P's listing, whose quantity follows every adjustment
	var (
		mu           sync.Mutex
		syncs, feeds int
	)
	w.Env.ObserveFunction(b, "events", func(testenv.Invocation) {
		mu.Lock()
		defer mu.Unlock()
		feeds++
	})
	w.Env.ObserveSync(b, func(testenv.SyncBatch) {
		mu.Lock()
		defer mu.Unlock()
		syncs++
	})
	n, took := 0, time.Duration(0)
	for b.Loop() {
		messages()
		mu.Lock()
		syncs, feeds = 0, 0
		mu.Unlock()
		start := time.Now()
		base := 1000 * (n + 1)
		for i := range 500 {
			w.must(http.MethodPut, "/inventory", map[string]any{"inventory": map[string]any{"sku": "P", "warehouse_uuid": w.A, "on_hand": base + i}})
		}
		w.waitSynced(wanted(int64(base + 499 + 5)))
		took += time.Since(start)
		mu.Lock()
		// The last burst's: b.Loop's last iteration reports. The
		// invocations a second are the whole stack's (one stream shard):
		// what a window of 0 costs under load (docs/decisions.md).
		b.ReportMetric(float64(messages()), "msgs/burst")
		b.ReportMetric(float64(syncs)/time.Since(start).Seconds(), "sync-invokes/s")
		b.ReportMetric(float64(feeds)/time.Since(start).Seconds(), "events-invokes/s")
		mu.Unlock()
		n++
	}
	b.ReportMetric(took.Seconds()/float64(n), "s/burst")
}

// messageCount counts the listing.quantity messages sent to the world's
// listings (of the channel; all when ""), from the channel-sync function's
// records, until tb ends: the func returned reads the count and starts it
// over.
func (w *world) messageCount(tb testing.TB, channel string) func() int {
	lst := store.PK(w.Acct.ID, "LST")
	var (
		mu sync.Mutex
		n  int
	)
	w.Env.ObserveSync(tb, func(sb testenv.SyncBatch) {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range sb.Records {
			if r.Change.Keys["PK"].String() == lst && strings.HasPrefix(r.Change.Keys["SK"].String(), channel) && sends(r) {
				n++
			}
		}
	})
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		got := n
		n = 0
		return got
	}
}

// seen reports whether GET /listings shows every wanted listing synced at
// its quantity (what a client polling the API sees).
func seen(ls []listings.Listing, want map[string]int64) bool {
	if len(ls) != len(want) {
		return false
	}
	for _, l := range ls {
		if q, ok := want[l.ChannelSKU]; !ok || l.SyncStatus != listings.StatusSynced || l.Quantity == nil || *l.Quantity != q {
			return false
		}
	}
	return true
}

// sends reports whether a listing's stream record sends a listing.quantity
// message: its version or send count moved, or its hold ended, and it is
// pending outside a hold. A version that went at once was sent by the pass
// that wrote it too, with the same deduplication id: one message.
func sends(r events.DynamoDBEventRecord) bool {
	nw, old := r.Change.NewImage, r.Change.OldImage
	if nw == nil || old == nil || nw["sync_status"].String() != "pending" || held(nw) {
		return false
	}
	return nw["version"].Number() != old["version"].Number() || nw["push"].Number() != old["push"].Number() || held(old)
}

// held reports whether a listing's image is in a hold.
func held(img map[string]events.DynamoDBAttributeValue) bool {
	v, ok := img["held"]
	return ok && v.DataType() == events.DataTypeNumber && v.Number() != "0"
}
