package listings_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/testenv"
)

// importProducts is how many products BenchmarkProductImport seeds: IMPORT_PRODUCTS (make
// bench sets 10000), else 500, so the benchmark stays short where nobody asked for more.
func importProducts() int {
	if n, err := strconv.Atoi(os.Getenv("IMPORT_PRODUCTS")); err == nil && n > 0 {
		return n
	}
	return 500
}

// syncTimeout is channel-sync's timeout in template.yaml (ChannelSyncFunction).
const syncTimeout = 60 * time.Second

// BenchmarkProductImport seeds importProducts products into the account of the listings'
// world (two channels), 8 writers at once, as an import does, and watches every channel-sync batch until the stream
// settles (no batch for 3 s). It reports the largest batch's time (max-batch-s) and size
// (max-batch-records), that time as a share of the function's timeout (of-timeout, to stay
// under 0.5), and the cost per stream record over all batches: its time (ms/record), its
// DynamoDB calls (ddb-calls/record) and those by operation (<operation>/record). It runs
// once however many iterations it is given (docs/scale.md).
func BenchmarkProductImport(b *testing.B) {
	w := newWorld(b)
	var (
		mu               sync.Mutex
		maxTook, busy    time.Duration
		maxSize, records int
		last             atomic.Int64
		ops              = map[string]int{}
	)
	w.Env.ObserveSync(b, func(sb testenv.SyncBatch) {
		mu.Lock()
		defer mu.Unlock()
		took := sb.End.Sub(sb.Start)
		busy += took
		records += len(sb.Records)
		for op, n := range sb.Ops {
			ops[op] += n
		}
		if took > maxTook {
			maxTook, maxSize = took, len(sb.Records)
		}
		last.Store(time.Now().UnixNano())
	})
	svc := w.Env.Deps.Catalog()
	ctx := context.Background()
	n := importProducts()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := int(next.Add(1)); i <= n; i = int(next.Add(1)) {
				sku := fmt.Sprintf("IMP-%05d", i)
				obj, err := lenient.DecodeObject(fmt.Sprintf(`{"name":"Imported product %d"}`, i))
				if err != nil {
					b.Error(err)
					return
				}
				in, err := catalog.ParseProduct(obj)
				if err != nil {
					b.Error(err)
					return
				}
				if _, err := svc.Upsert(ctx, w.Acct.ID, sku, in); err != nil {
					b.Errorf("upsert %s: %v", sku, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for time.Since(time.Unix(0, last.Load())) < 3*time.Second {
		time.Sleep(500 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	b.ReportMetric(maxTook.Seconds(), "max-batch-s")
	b.ReportMetric(float64(maxSize), "max-batch-records")
	b.ReportMetric(maxTook.Seconds()/syncTimeout.Seconds(), "of-timeout")
	if records > 0 {
		b.ReportMetric(float64(busy.Milliseconds())/float64(records), "ms/record")
		calls := 0
		for op, n := range ops {
			b.ReportMetric(float64(n)/float64(records), op+"/record")
			calls += n
		}
		b.ReportMetric(float64(calls)/float64(records), "ddb-calls/record")
	}
}
