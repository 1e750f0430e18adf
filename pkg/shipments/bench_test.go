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
		calls      int
		rcu, wcu   float64
		sends      int
		sent       time.Time
		toOutbox   []float64
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
				sends++
				sent, inThisPass = sb.End, true
			}
		}
		if ours {
			calls, rcu, wcu = calls+sb.Calls, rcu+sb.RCU, wcu+sb.WCU
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
			toOutbox = append(toOutbox, float64(sent.Sub(start).Microseconds())/1000)
		}
		n++
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	b.ReportMetric(float64(calls)/float64(n), "ddb-calls/op")
	b.ReportMetric(rcu/float64(n), "ddb-rcu/op")
	b.ReportMetric(wcu/float64(n), "ddb-wcu/op")
	b.ReportMetric(float64(sends)/float64(n), "msgs/op")
	b.ReportMetric(testenv.Percentile(toOutbox, 50), "ms-accepted-to-outbox-p50")
	b.ReportMetric(testenv.Percentile(toOutbox, 99), "ms-accepted-to-outbox-p99")
}
