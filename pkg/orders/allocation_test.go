package orders_test

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
	"github.com/multisell/multisell/pkg/warehouses"
)

// TestSplitExample is the split example of the allocation rules
// (docs/orders.md, "Allocation"): A and B hold 1 each of SKU 123; an order
// for 2 gives one fulfillment of 1 at A and one at B.
func TestSplitExample(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a, b := f.Warehouse("A"), f.Warehouse("B")
	f.Product("123")
	f.Stock("123", a, 1)
	f.Stock("123", b, 1)
	seq := f.ImportOne(f.Doc("R-1", "2024-01-02T03:04:05Z", orderstest.Line("1", "123", 2)))

	o := f.Order(seq)
	if got := orderstest.Warehouses(o.Items[0]); !maps.Equal(got, map[string]int{a: 1, b: 1}) {
		t.Errorf("warehouses = %v", got)
	}
	if o.Items[0].InventorySKU == nil || *o.Items[0].InventorySKU != "123" {
		t.Errorf("inventory_sku = %v", o.Items[0].InventorySKU)
	}
	for _, wh := range []string{a, b} {
		fl := f.List("/warehouses/" + wh + "/fulfillments")
		if len(fl) != 1 || len(fl[0].Items) != 1 || *fl[0].Items[0].FulfillmentQuantity != 1 {
			t.Errorf("fulfillments at %s = %+v", wh, fl)
		}
		f.WantStock("123", wh, 1, 1)
	}
	alias := f.List("/warehouses/fulfillments/" + a)
	if len(alias) != 1 || alias[0].Seq != seq {
		t.Errorf("alias path = %v", orderstest.Seqs(alias))
	}
}

// TestWholeOrderPreference: the highest-priority warehouse that can ship
// the whole order gets it all, even when a higher one holds part.
func TestWholeOrderPreference(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a, b := f.Warehouse("A"), f.Warehouse("B")
	f.Product("X")
	f.Product("Y")
	f.Stock("X", a, 5)
	f.Stock("X", b, 2)
	f.Stock("Y", b, 1)
	seq := f.ImportOne(f.Doc("R-1", "2024-01-02", orderstest.Line("1", "X", 2), orderstest.Line("2", "Y", 1)))
	o := f.Order(seq)
	for _, it := range o.Items {
		if got := orderstest.Warehouses(it); !maps.Equal(got, map[string]int{b: it.Quantity}) {
			t.Errorf("line %s warehouses = %v, want all at B", it.OrderItemRef, got)
		}
	}
	if fl := f.List("/warehouses/" + a + "/fulfillments"); len(fl) != 0 {
		t.Errorf("A has fulfillments %v", orderstest.Seqs(fl))
	}
	f.WantStock("X", a, 5, 0)
	f.WantStock("X", b, 2, 2)
	f.WantStock("Y", b, 1, 1)
}

// TestUnassignedThenStockArrives: without stock an order's items are
// unassigned and absent from fulfillments; when stock arrives (a new
// record, then an adjustment) the oldest order gets it first.
func TestUnassignedThenStockArrives(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	newer := f.ImportOne(f.Doc("NEW", "2024-03-01T00:00:00Z", orderstest.Line("1", "S", 1)))
	older := f.ImportOne(f.Doc("OLD", "2024-02-01T00:00:00Z", orderstest.Line("1", "S", 1)))
	if o := f.Order(older); len(o.Items[0].Warehouses) != 0 || o.Items[0].QuantityFulfilled != 0 {
		t.Fatalf("unassigned order has warehouses %v", o.Items[0].Warehouses)
	}

	f.Stock("S", a, 1) // a new record: the older order is allocated first
	f.WantAt(older, map[string]int{a: 1})
	f.WantAt(newer, map[string]int{})
	fl := f.List("/warehouses/" + a + "/fulfillments")
	if fmt.Sprint(orderstest.Seqs(fl)) != fmt.Sprint([]int64{older}) {
		t.Errorf("fulfillments = %v, want [%d]", orderstest.Seqs(fl), older)
	}

	f.Adjust("S", a, 2) // an adjustment raising availability
	f.WantAt(newer, map[string]int{a: 1})
	f.WantStock("S", a, 2, 2)
}

// TestOverReservedGivesBack: lowering on_hand below what is reserved takes
// the newest order's allocation back, and plans it elsewhere.
func TestOverReservedGivesBack(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a, b := f.Warehouse("A"), f.Warehouse("B")
	f.Product("S")
	f.Stock("S", a, 2)
	first := f.ImportOne(f.Doc("1", "2024-01-01", orderstest.Line("1", "S", 1)))
	second := f.ImportOne(f.Doc("2", "2024-01-02", orderstest.Line("1", "S", 1)))
	f.Stock("S", b, 0)
	f.Adjust("S", b, 5)
	f.Adjust("S", a, 1)
	f.WantAt(first, map[string]int{a: 1})
	f.WantAt(second, map[string]int{b: 1})
	f.WantStock("S", a, 1, 1)
	f.WantStock("S", b, 5, 1)
}

// TestArchiveReallocates: archiving a warehouse moves its allocations to the
// next one with stock.
func TestArchiveReallocates(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a, b := f.Warehouse("A"), f.Warehouse("B")
	f.Product("S")
	f.Stock("S", a, 3)
	f.Stock("S", b, 3)
	seq := f.ImportOne(f.Doc("1", "2024-01-01", orderstest.Line("1", "S", 2)))
	if !f.WantAt(seq, map[string]int{a: 2}) {
		t.FailNow()
	}
	r := f.C.Do("PUT", "/warehouses/"+a, map[string]any{"warehouse": map[string]any{"archived": true}})
	if r.Status != 200 {
		t.Fatalf("archive: %d %s", r.Status, r)
	}
	f.WantAt(seq, map[string]int{b: 2})
	f.WantStock("S", a, 3, 0)
	f.WantStock("S", b, 3, 2)
	if fl := f.List("/warehouses/" + a + "/fulfillments"); len(fl) != 0 {
		t.Errorf("archived warehouse still has fulfillments %v", orderstest.Seqs(fl))
	}
}

// TestWaitingPerSKU: an order waiting for a few SKUs waits in each SKU's
// partition, one waiting for many in the shared one; either way, stock of
// one of its SKUs is allocated to it and the rest keeps waiting (the
// fixture's invariant check verifies the index items after each change).
func TestWaitingPerSKU(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, 10} {
		t.Run(fmt.Sprintf("%d SKUs", n), func(t *testing.T) {
			t.Parallel()
			f := orderstest.New(t)
			a := f.Warehouse("A")
			var lines []map[string]any
			for i := range n {
				sku := fmt.Sprintf("S%d", i)
				f.Product(sku)
				lines = append(lines, orderstest.Line(fmt.Sprint(i), sku, 1))
			}
			seq := f.ImportOne(f.Doc("R", "2024-01-01", lines...))
			f.Stock("S1", a, 5)
			got := map[string]int{}
			for _, it := range f.Order(seq).Items {
				got[it.SKU] = orderstest.Warehouses(it)[a]
			}
			want := map[string]int{}
			for i := range n {
				want[fmt.Sprintf("S%d", i)] = 0
			}
			want["S1"] = 1
			if !maps.Equal(got, want) {
				t.Errorf("allocated at A by SKU = %v, want %v", got, want)
			}
			f.WantStock("S1", a, 5, 1)
		})
	}
}

// TestStockAtWarehouseCreatedElsewhere: a warehouse another Lambda
// instance created, which this process's copy of the warehouse list lacks,
// gets its stock allocated as soon as a stock read finds a record there
// (the copy is read again), not when the copy expires.
func TestStockAtWarehouseCreatedElsewhere(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	f.Warehouse("A")
	f.Product("S")
	seq := f.ImportOne(f.Doc("R", "2024-01-01", orderstest.Line("1", "S", 1))) // reads the list: A
	// Another instance's warehouse, written as pkg/warehouses stores it.
	b := warehouses.Warehouse{UUID: store.NewID(), Name: "B", InventoryMaster: warehouses.MasterMultisell, Priority: 2,
		CreatedAt: "2024-01-01T00:00:00Z"}
	item, err := store.Marshal(b, store.Key(store.PK(f.Acct.ID, "WH"), b.UUID))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Env.Deps.Table.Commit(context.Background(), []store.Write{store.Put(item, "", nil)}); err != nil {
		t.Fatal(err)
	}
	f.Stock("S", b.UUID, 2)
	f.WantAt(seq, map[string]int{b.UUID: 1})
	f.WantStock("S", b.UUID, 2, 1)
}
