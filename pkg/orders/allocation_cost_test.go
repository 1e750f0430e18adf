package orders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"sync/atomic"
	"testing"

	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// The account the allocation cost cases run in: 20 warehouses and 100
// products, each stocked at two of the warehouses (200 of the 2,000
// possible records), and 100 orders waiting for another product, which no
// warehouse has.
const (
	allocWarehouses = 20
	allocSKUs       = 100
	allocWaiting    = 100
	allocOnHand     = 1_000_000
)

// allocationCases are the allocation's reads and writes, measured in that
// account: the plan of an order of 100 lines (its warehouses and stock), the
// import of such an order, and the stock listener after an adjustment of one
// record of each of 50 SKUs (the consumer's part after applying it).
func allocationCases(tb testing.TB) []testenv.CostCase {
	f := orderstest.New(tb)
	acct := f.Acct.ID
	whs := make([]string, allocWarehouses)
	for i := range whs {
		whs[i] = f.Warehouse(fmt.Sprintf("W%02d", i))
	}
	skus := make([]string, allocSKUs)
	var records []inventory.Item
	onHand := int64(allocOnHand)
	for i := range skus {
		skus[i] = fmt.Sprintf("A%03d", i)
		f.Product(skus[i])
		for _, wh := range []string{whs[i%allocWarehouses], whs[(i+7)%allocWarehouses]} {
			records = append(records, inventory.Item{SKU: skus[i], Warehouse: wh, OnHand: &onHand})
		}
	}
	for start := 0; start < len(records); start += 50 {
		if err := f.Env.Deps.Inventory().Create(context.Background(), acct, records[start:start+50]); err != nil {
			tb.Fatal(err)
		}
	}
	f.Product("WAIT")
	waiting := make([]any, allocWaiting)
	for i := range waiting {
		waiting[i] = f.Doc(fmt.Sprintf("WAIT-%03d", i), "2024-01-01", orderstest.Line("1", "WAIT", 1))
	}
	f.ImportDocs(waiting...)

	lines := make([]map[string]any, len(skus))
	for i, sku := range skus {
		lines[i] = orderstest.Line(fmt.Sprint(i), sku, 1)
	}
	// The warehouse list as a busy instance has it: in its copy, fresh
	// (naming a warehouse the copy lacks reads it again), so that it does
	// not expire during the case.
	warm := func() error {
		_, err := f.Env.Deps.Warehouses().Cached(context.Background(), acct, []string{"not a warehouse"})
		return err
	}
	plan := func(ctx context.Context, _ int) error {
		if err := warm(); err != nil {
			return err
		}
		o := &orders.Order{Seq: 1, OrderedAt: "2024-01-01T00:00:00Z", PaymentStatus: orders.None}
		for i, sku := range skus {
			o.Items = append(o.Items, orders.Item{OrderItemRef: fmt.Sprint(i), SKU: sku, InventorySKU: &sku, Quantity: 1})
		}
		if err := orders.Allocate(ctx, f.Svc, acct, o); err != nil {
			return err
		}
		for _, it := range o.Items {
			if it.Allocated() != 1 {
				return fmt.Errorf("line %s allocated %d, want 1", it.OrderItemRef, it.Allocated())
			}
		}
		return nil
	}
	var imported atomic.Int64 // a benchmark's runs restart their numbering
	imp := func(ctx context.Context, _ int) error {
		if err := warm(); err != nil {
			return err
		}
		doc, err := json.Marshal(f.Doc(fmt.Sprintf("BIG-%d", imported.Add(1)), "2024-02-01", lines...))
		if err != nil {
			return err
		}
		res, err := f.Svc.Import(ctx, acct, []json.RawMessage{doc})
		if err == nil && res[0].Result != orders.ResultCreated {
			err = fmt.Errorf("import: %+v", res[0])
		}
		return err
	}
	listen := func(ctx context.Context, _ int) error {
		adj := inventory.Adjustment{RequestID: store.NewID(), Account: acct, Method: inventory.MethodPut}
		for i := range 50 { // one record of each of 50 SKUs
			adj.Items = append(adj.Items, records[2*i])
		}
		results, err := f.Env.Deps.Inventory().Apply(context.Background(), adj) // not the listener's cost
		if err != nil {
			return err
		}
		if err := warm(); err != nil {
			return err
		}
		return f.Svc.StockAdjusted(ctx, acct, results)
	}
	return []testenv.CostCase{
		{Name: "allocation of 100 lines x 20 warehouses", Run: plan, Want: map[string]int{"Query": 100}},
		{Name: "import of an order of 100 lines x 20 warehouses", Run: imp,
			Want: map[string]int{"GetItem": 3, "BatchGetItem": 2, "Query": 100, "TransactWriteItems": 3}},
		{Name: "stock listener after 50 records adjusted, 100 orders waiting for another SKU", Run: listen,
			Want: map[string]int{"Query": 51}},
	}
}

// TestAllocationCost checks each allocation case's DynamoDB calls against
// its budget, and its read units: one per stocked SKU read (its two records
// are one read unit), one per SKU whose waiting orders are read (none wait),
// nothing for the records that do not exist or the orders waiting for
// other SKUs. The import also reads its channel, idempotency key, counter,
// listing links and products (about 150 units for 100 lines), and writes
// the order in 3 transactions (its allocation does not fit in one).
func TestAllocationCost(t *testing.T) {
	t.Parallel()
	maxRCU := []float64{100, 260, 51}
	for i, c := range allocationCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			ctx, meter := store.WithMeter(context.Background())
			if err := c.Run(ctx, 0); err != nil {
				t.Fatal(err)
			}
			if got := meter.Ops(); !maps.Equal(got, c.Want) {
				t.Errorf("DynamoDB calls %v, want %v", got, c.Want)
			}
			if got := meter.ReadUnits(); got > maxRCU[i] {
				t.Errorf("%g read units, want at most %g", got, maxRCU[i])
			}
		})
	}
}

// BenchmarkAllocation reports the DynamoDB calls and capacity of each
// allocation case (make bench).
func BenchmarkAllocation(b *testing.B) { testenv.BenchCosts(b, allocationCases(b)) }
