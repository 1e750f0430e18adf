package orders_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/money"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// seeded is a shop holding n orders written in bulk (seed).
type seeded struct {
	*shop
	n int
}

// seedBase is the ordered_at of order 0; order i is i minutes later, so
// every listing's first page holds the same orders whatever n is.
var seedBase = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// seedTime is the ordered_at of order seq.
func seedTime(seq int) string { return isotime.Format(seedBase.Add(time.Duration(seq) * time.Minute)) }

// seedOrder is order seq of the seeded accounts, one line of 2 units of
// SKU "S", by seq % 10: 0 cancelled; 1 completed (shipped from wh, paid);
// 2 and 5 half shipped, the rest allocated at wh; 3, 4, 6-9 allocated at
// wh. Even seqs are paid. So with n >= 300, each of the partitions the
// tests list (open, paid, not shipped, wh's fulfillments) holds more than
// a page of 100.
func seedOrder(ch channels.Channel, wh string, seq int) *orders.Order {
	str := func(s string) *string { return &s }
	num := func(cents int64) *money.Amount { a := money.Cents(cents); return &a }
	sku := "S"
	it := orders.Item{
		OrderItemRef: "1", SKU: sku, InventorySKU: &sku, Quantity: 2,
		Title: str("Seeded product with a title of a realistic length"), UnitPrice: num(1250), Price: num(2500), Total: num(2500),
	}
	o := &orders.Order{
		DisplayRef: fmt.Sprintf("SEED-%07d", seq), Seq: int64(seq), ChannelUUID: ch.UUID, ChannelName: ch.Name,
		ChannelTypeDisplayName: ch.ChannelTypeDisplayName, OrderedAt: seedTime(seq), PaymentStatus: orders.None,
		ShippingContactName: str("Jane Doe"), ShippingAddress1: str("1 Main Street"), ShippingCity: str("Springfield"),
		ShippingPostalCode: str("12345"), ShippingCountryCode: str("US"), ShippingEmail: str("jane@example.com"),
		Subtotal: num(2500), Total: num(2500),
	}
	if seq%2 == 0 || seq%10 == 1 {
		o.PaymentStatus, o.PaidAt = orders.All, str(o.OrderedAt)
	}
	switch seq % 10 {
	case 0:
		o.CancelledAt = str(o.OrderedAt)
	case 1:
		it.QuantityFulfilled, it.Shipped, o.ShippedAt = 2, []orders.WarehouseQty{{WarehouseUUID: wh, Quantity: 2}}, str(o.OrderedAt)
	case 2, 5:
		it.QuantityFulfilled, it.Shipped, o.ShippedAt = 1, []orders.WarehouseQty{{WarehouseUUID: wh, Quantity: 1}}, str(o.OrderedAt)
		it.Alloc = []orders.WarehouseQty{{WarehouseUUID: wh, Quantity: 1}}
	default:
		it.Alloc = []orders.WarehouseQty{{WarehouseUUID: wh, Quantity: 2}}
	}
	o.Items = []orders.Item{it}
	return o
}

// seedWorkers is the number of concurrent BatchWriteItem callers.
const seedWorkers = 16

// seed creates a shop with n orders: the items their imports would have
// written (orders.SeedItems), stored with BatchWriteItem 25 at a time by
// concurrent workers, then the reservation of their allocations, the
// sequence counter and the counts of the lists, so the account holds every
// invariant (with check, the
// test verifies them when it ends).
func seed(tb testing.TB, n int, check bool) *seeded {
	tb.Helper()
	ctx := context.Background()
	s := &seeded{shop: newShop(tb, int64(2*n), check), n: n}
	t, ch := s.env.Deps.Table, s.ch
	start := time.Now()
	batches := make(chan []types.WriteRequest, seedWorkers)
	errs := make(chan error, seedWorkers+1)
	var wg sync.WaitGroup
	for range seedWorkers {
		wg.Go(func() {
			for b := range batches {
				if err := batchWrite(ctx, t, b); err != nil {
					errs <- err
					for range batches { // drain, so the producer ends
					}
					return
				}
			}
		})
	}
	reserved, counts := 0, store.Counts{}
	var batch []types.WriteRequest
	for seq := 1; seq <= n; seq++ {
		o := seedOrder(ch, s.wh, seq)
		items, err := orders.SeedItems(s.acct.ID, o)
		if err != nil {
			errs <- err
			break
		}
		orders.SeedCounts(counts, o)
		reserved += o.Items[0].Allocated()
		for _, it := range items {
			batch = append(batch, types.WriteRequest{PutRequest: &types.PutRequest{Item: it}})
			if len(batch) == 25 {
				batches <- batch
				batch = nil
			}
		}
	}
	if len(batch) > 0 {
		batches <- batch
	}
	close(batches)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		tb.Fatalf("seed %d orders: %v", n, err)
	}
	err := t.Commit(ctx, append(counts.Writes(s.acct.ID),
		s.env.Deps.Inventory().Reserve(s.acct.ID, "S", s.wh, reserved),
		store.Put(orders.SeqCounterItem(s.acct.ID, int64(n)), "", nil),
	))
	if err != nil {
		tb.Fatalf("reserve seeded stock: %v", err)
	}
	tb.Logf("seeded %d orders in %v", n, time.Since(start).Round(time.Millisecond))
	return s
}

// batchWrite writes one batch, retrying what DynamoDB leaves unprocessed.
func batchWrite(ctx context.Context, t store.Table, batch []types.WriteRequest) error {
	req := map[string][]types.WriteRequest{t.Name: batch}
	for attempt := 0; len(req) > 0; attempt++ {
		if attempt > 0 {
			time.Sleep(time.Duration(min(attempt, 20)) * 10 * time.Millisecond)
		}
		out, err := t.DB.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: req})
		if err != nil {
			return err
		}
		req = out.UnprocessedItems
	}
	return nil
}

// scaleCases are the first pages whose cost must not depend on the
// account's size (GET /orders alone and with each filter, fulfillments),
// and a jump to page jump of 10 (which must read only the keys it skips).
// Each page reads its start and count (BatchGetItem) and keeps where the
// next page starts (PutItem). A range filter's first page counts the range
// (a second Query), at a cost that grows with the range, up to its bound
// (docs/orders.md), not with the account: the ranges cover the same orders
// at every size.
func scaleCases(s *seeded, jump int) []testenv.CostCase {
	calls := func(query, batchGet, putItem int) map[string]int {
		m := map[string]int{"Query": query, "PutItem": putItem, "UpdateItem": 1}
		if batchGet > 0 {
			m["BatchGetItem"] = batchGet
		}
		return m
	}
	get := func(name, path string, want map[string]int) testenv.CostCase {
		return testenv.CostCase{Name: name, Run: s.env.Request(s.acct, http.MethodGet, path, http.StatusOK, nil), Want: want}
	}
	all, filtered, ranged := calls(1, 1, 1), calls(1, 2, 1), calls(2, 0, 1)
	jumpPath := fmt.Sprintf("/orders?limit=10&page=%d", jump)
	jumpRun := s.env.Request(s.acct, http.MethodGet, jumpPath, http.StatusOK, nil)
	return []testenv.CostCase{
		get("GET /orders", "/orders", all),
		get("GET /orders?sb_status=open", "/orders?sb_status=open", filtered),
		get("GET /orders?sb_payment_status=all", "/orders?sb_payment_status=all", filtered),
		get("GET /orders?shipment_status=none", "/orders?shipment_status=none", filtered),
		get("GET /orders?min_ordered_at", "/orders?min_ordered_at="+seedTime(101)+"&max_ordered_at="+seedTime(290), ranged),
		get("GET /orders?max_ordered_at", "/orders?max_ordered_at="+seedTime(250), ranged),
		get("GET /warehouses/{uuid}/fulfillments", "/warehouses/"+s.wh+"/fulfillments", filtered),
		get("GET /warehouses/fulfillments/{uuid}", "/warehouses/fulfillments/"+s.wh, filtered),
		{Name: "GET " + jumpPath + " (jump)", Run: func(ctx context.Context, i int) error {
			// A fresh listing: a Query of the cursors finds none, one reads
			// the skipped keys; the starts of the page and the next are kept.
			if err := orders.ForgetCursors(s.env.Deps.Table, s.acct.ID); err != nil {
				return err
			}
			return jumpRun(ctx, i)
		}, Want: calls(3, 1, 2)},
	}
}

// TestScaleSmall proves the scale property (acceptance item 5) at a size
// CI affords: every first page, and a jump, costs the same calls and the
// same read units with 300 orders as with 1,000. The 300-order account is
// checked for every invariant: the bulk writes are what imports would have
// written (the 1,000 are written by the same code). Sizes stay small: the
// local DynamoDB emulator's writes slow down as the table's stream grows
// (docs/local-stack.md). It runs alone, before the parallel tests: its bulk
// load would make their requests wait on the emulator.
func TestScaleSmall(t *testing.T) {
	small, large := seed(t, 300, true), seed(t, 1000, false)
	smallCases, largeCases := scaleCases(small, 20), scaleCases(large, 20)
	for i, sc := range smallCases {
		lc := largeCases[i]
		sOps, sRead := measure(t, sc)
		lOps, lRead := measure(t, lc)
		t.Logf("%s: %v, %g RCU", sc.Name, sOps, sRead)
		if !maps.Equal(sOps, sc.Want) {
			t.Errorf("%s, %d orders: DynamoDB calls %v, want %v", sc.Name, small.n, sOps, sc.Want)
		}
		if !maps.Equal(sOps, lOps) || sRead != lRead || sRead == 0 {
			t.Errorf("%s: %d orders cost %v and %g RCU, %d orders %v and %g RCU", sc.Name, small.n, sOps, sRead, large.n, lOps, lRead)
		}
	}
}

// measure runs c once and returns its calls and read units.
func measure(t *testing.T, c testenv.CostCase) (map[string]int, float64) {
	t.Helper()
	ctx, meter := store.WithMeter(context.Background())
	if err := c.Run(ctx, 0); err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return meter.Ops(), meter.ReadUnits()
}

// BenchmarkScale reports the first pages and a jump to page 50 with 1,000
// and with 10,000 orders in the account (acceptance item 5): the
// ddb-calls/op and ddb-rcu/op of each request are the same at both sizes.
// Seeding 10,000 orders takes a while, so `go test` without -bench does
// not run it; TestScaleSmall proves the same at 300 and 1,000.
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("%d orders", n), func(b *testing.B) {
			testenv.BenchCosts(b, scaleCases(seed(b, n, false), 50))
		})
	}
}
