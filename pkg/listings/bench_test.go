package listings_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// BenchmarkStockChange: one stock change of a SKU listed on two channels,
// end to end on the local stack: PUT /inventory, the adjustment applied,
// the stream, the channel-sync function, the outbox, the connector sim's
// confirmation. It reports the channel-sync function's DynamoDB calls and
// capacity per change, the outbox messages per change, and the time from
// the accepted request, and from the applied record reaching the function,
// to the outbox message (p50 and p99).
func BenchmarkStockChange(b *testing.B) {
	w := newWorld(b)
	w.waitSynced(wanted(15))
	inv, lst := store.PK(w.Acct.ID, "INV"), store.PK(w.Acct.ID, "LST")
	var (
		mu             sync.Mutex
		calls, sends   int
		totalSends     int
		rcu, wcu       float64
		applied, sent  time.Time
		toOutbox, lags []float64
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
					applied = sb.Start
				}
			case pk == lst:
				ours = true
				if pushed(r) {
					sends++
					totalSends++
					sent = sb.End
				}
			}
		}
		if ours {
			calls, rcu, wcu = calls+sb.Calls, rcu+sb.RCU, wcu+sb.WCU
		}
	})
	n := 0
	for b.Loop() {
		onHand := 2 + 2*(n%2) // P available 7 or 9: both listings move
		mu.Lock()
		applied, sent, sends = time.Time{}, time.Time{}, 0
		mu.Unlock()
		start := time.Now()
		w.must(http.MethodPut, "/inventory", map[string]any{"inventory": map[string]any{"sku": "P", "warehouse_uuid": w.A, "on_hand": onHand}})
		w.waitSynced(wanted(int64(onHand) + 5))
		mu.Lock()
		if !sent.IsZero() {
			toOutbox = append(toOutbox, float64(sent.Sub(start).Microseconds())/1000)
			lags = append(lags, float64(sent.Sub(applied).Microseconds())/1000)
		}
		n++
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	b.ReportMetric(float64(calls)/float64(n), "ddb-calls/op")
	b.ReportMetric(rcu/float64(n), "ddb-rcu/op")
	b.ReportMetric(wcu/float64(n), "ddb-wcu/op")
	b.ReportMetric(float64(totalSends)/float64(n), "msgs/op")
	b.ReportMetric(testenv.Percentile(toOutbox, 50), "ms-accepted-to-outbox-p50")
	b.ReportMetric(testenv.Percentile(toOutbox, 99), "ms-accepted-to-outbox-p99")
	b.ReportMetric(testenv.Percentile(lags, 50), "ms-applied-to-outbox-p50")
	b.ReportMetric(testenv.Percentile(lags, 99), "ms-applied-to-outbox-p99")
}

// pushed reports whether a listing's stream record sends an outbox message:
// its version moved while it is to be synced.
func pushed(r events.DynamoDBEventRecord) bool {
	nw, old := r.Change.NewImage, r.Change.OldImage
	if nw == nil || old == nil || nw["sync_status"].String() != "pending" {
		return false
	}
	return nw["version"].Number() != old["version"].Number()
}
