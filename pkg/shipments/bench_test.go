package shipments_test

import (
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// BenchmarkTracking: one shipment's tracking to its channel, end to end on
// the local stack: POST /shipments, the stream, the channel-sync function,
// the outbox, the connector sim's result. It reports the channel-sync
// function's DynamoDB calls and capacity per shipment, the tracking
// messages per shipment, and the time from the accepted request to the
// outbox message (p50 and p99, with the template's batching window).
func BenchmarkTracking(b *testing.B) {
	tr := newTracked(b)
	shp := store.PK(tr.Acct.ID, "SHP")
	var (
		mu         sync.Mutex
		cost       testenv.SyncCost
		sent       time.Time
		inThisPass bool
	)
	tr.Env.ObserveSync(b, func(sb testenv.SyncBatch) {
		mu.Lock()
		defer mu.Unlock()
		ours := false
		for _, r := range sb.Records {
			if r.Change.Keys["PK"].String() != shp {
				continue
			}
			ours = true
			if r.EventName == "INSERT" {
				cost.Messages++
				sent, inThisPass = sb.End, true
			}
		}
		if ours {
			cost.Add(sb)
		}
	})
	n := 0
	for b.Loop() {
		b.StopTimer()
		seq := tr.order(tr.Channel, "BENCH-"+time.Now().Format("150405.000000"))
		mu.Lock()
		inThisPass = false
		mu.Unlock()
		b.StartTimer()
		start := time.Now()
		id := tr.ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1Z" + time.Now().Format("150405000000"),
			"items": []any{item("S", 3), item("T", 2)}})
		tr.waitStatus(seq, id, shipments.StatusSynced)
		mu.Lock()
		if inThisPass {
			cost.Observe("accepted-to-outbox", sent.Sub(start))
		}
		n++
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	cost.Report(b, n)
}
