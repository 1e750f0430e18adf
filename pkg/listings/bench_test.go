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
		mu            sync.Mutex
		cost          testenv.SyncCost
		applied, sent time.Time
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
					cost.Messages++
					sent = sb.End
				}
			}
		}
		if ours {
			cost.Add(sb)
		}
	})
	n := 0
	for b.Loop() {
		onHand := 2 + 2*(n%2) // P available 7 or 9: both listings move
		mu.Lock()
		applied, sent = time.Time{}, time.Time{}
		mu.Unlock()
		start := time.Now()
		w.must(http.MethodPut, "/inventory", map[string]any{"inventory": map[string]any{"sku": "P", "warehouse_uuid": w.A, "on_hand": onHand}})
		w.waitSynced(wanted(int64(onHand) + 5))
		mu.Lock()
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

// pushed reports whether a listing's stream record sends an outbox message:
// its version moved while it is to be synced.
func pushed(r events.DynamoDBEventRecord) bool {
	nw, old := r.Change.NewImage, r.Change.OldImage
	if nw == nil || old == nil || nw["sync_status"].String() != "pending" {
		return false
	}
	return nw["version"].Number() != old["version"].Number()
}
