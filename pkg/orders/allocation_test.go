package orders_test

import (
	"fmt"
	"maps"
	"testing"
)

// TestSplitExample is DESIGN.md section 6's example: A and B hold 1 each of
// SKU 123; an order for 2 gives one fulfillment of 1 at A and one at B.
func TestSplitExample(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b := f.warehouse("A"), f.warehouse("B")
	f.product("123")
	f.stock("123", a, 1)
	f.stock("123", b, 1)
	seq := f.importOne(f.doc("R-1", "2024-01-02T03:04:05Z", line("1", "123", 2)))

	o := f.order(seq)
	if got := whs(o.Items[0]); !maps.Equal(got, map[string]int{a: 1, b: 1}) {
		t.Errorf("warehouses = %v", got)
	}
	if o.Items[0].InventorySKU == nil || *o.Items[0].InventorySKU != "123" {
		t.Errorf("inventory_sku = %v", o.Items[0].InventorySKU)
	}
	for _, wh := range []string{a, b} {
		fl := f.list("/warehouses/" + wh + "/fulfillments")
		if len(fl) != 1 || len(fl[0].Items) != 1 || *fl[0].Items[0].FulfillmentQuantity != 1 {
			t.Errorf("fulfillments at %s = %+v", wh, fl)
		}
		f.wantStock("123", wh, 1, 1)
	}
	alias := f.list("/warehouses/fulfillments/" + a)
	if len(alias) != 1 || alias[0].Seq != seq {
		t.Errorf("alias path = %v", seqs(alias))
	}
}

// TestWholeOrderPreference: the highest-priority warehouse that can ship
// the whole order gets it all, even when a higher one holds part.
func TestWholeOrderPreference(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b := f.warehouse("A"), f.warehouse("B")
	f.product("X")
	f.product("Y")
	f.stock("X", a, 5)
	f.stock("X", b, 2)
	f.stock("Y", b, 1)
	seq := f.importOne(f.doc("R-1", "2024-01-02", line("1", "X", 2), line("2", "Y", 1)))
	o := f.order(seq)
	for _, it := range o.Items {
		if got := whs(it); !maps.Equal(got, map[string]int{b: it.Quantity}) {
			t.Errorf("line %s warehouses = %v, want all at B", it.OrderItemRef, got)
		}
	}
	if fl := f.list("/warehouses/" + a + "/fulfillments"); len(fl) != 0 {
		t.Errorf("A has fulfillments %v", seqs(fl))
	}
	f.wantStock("X", a, 5, 0)
	f.wantStock("X", b, 2, 2)
	f.wantStock("Y", b, 1, 1)
}

// TestUnassignedThenStockArrives: without stock an order's items are
// unassigned and absent from fulfillments; when stock arrives (a new
// record, then an adjustment) the oldest order gets it first.
func TestUnassignedThenStockArrives(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.warehouse("A")
	f.product("S")
	newer := f.importOne(f.doc("NEW", "2024-03-01T00:00:00Z", line("1", "S", 1)))
	older := f.importOne(f.doc("OLD", "2024-02-01T00:00:00Z", line("1", "S", 1)))
	if o := f.order(older); len(o.Items[0].Warehouses) != 0 || o.Items[0].QuantityFulfilled != 0 {
		t.Fatalf("unassigned order has warehouses %v", o.Items[0].Warehouses)
	}

	f.stock("S", a, 1) // a new record: the older order is allocated first
	if got := whs(f.order(older).Items[0]); !maps.Equal(got, map[string]int{a: 1}) {
		t.Errorf("older order after new record = %v", got)
	}
	if got := whs(f.order(newer).Items[0]); len(got) != 0 {
		t.Errorf("newer order took stock: %v", got)
	}
	fl := f.list("/warehouses/" + a + "/fulfillments")
	if fmt.Sprint(seqs(fl)) != fmt.Sprint([]int64{older}) {
		t.Errorf("fulfillments = %v, want [%d]", seqs(fl), older)
	}

	f.adjust("S", a, 2) // an adjustment raising availability
	if got := whs(f.order(newer).Items[0]); !maps.Equal(got, map[string]int{a: 1}) {
		t.Errorf("newer order after adjustment = %v", got)
	}
	f.wantStock("S", a, 2, 2)
}

// TestOverReservedGivesBack: lowering on_hand below what is reserved takes
// the newest order's allocation back, and plans it elsewhere.
func TestOverReservedGivesBack(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b := f.warehouse("A"), f.warehouse("B")
	f.product("S")
	f.stock("S", a, 2)
	first := f.importOne(f.doc("1", "2024-01-01", line("1", "S", 1)))
	second := f.importOne(f.doc("2", "2024-01-02", line("1", "S", 1)))
	f.stock("S", b, 0)
	f.adjust("S", b, 5)
	f.adjust("S", a, 1)
	if got := whs(f.order(first).Items[0]); !maps.Equal(got, map[string]int{a: 1}) {
		t.Errorf("first = %v", got)
	}
	if got := whs(f.order(second).Items[0]); !maps.Equal(got, map[string]int{b: 1}) {
		t.Errorf("second = %v, want moved to B", got)
	}
	f.wantStock("S", a, 1, 1)
	f.wantStock("S", b, 5, 1)
}

// TestArchiveReallocates: archiving a warehouse moves its allocations to the
// next one with stock.
func TestArchiveReallocates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a, b := f.warehouse("A"), f.warehouse("B")
	f.product("S")
	f.stock("S", a, 3)
	f.stock("S", b, 3)
	seq := f.importOne(f.doc("1", "2024-01-01", line("1", "S", 2)))
	if got := whs(f.order(seq).Items[0]); !maps.Equal(got, map[string]int{a: 2}) {
		t.Fatalf("before archive = %v", got)
	}
	r := f.c.Do("PUT", "/warehouses/"+a, map[string]any{"warehouse": map[string]any{"archived": true}})
	if r.Status != 200 {
		t.Fatalf("archive: %d %s", r.Status, r)
	}
	if got := whs(f.order(seq).Items[0]); !maps.Equal(got, map[string]int{b: 2}) {
		t.Errorf("after archive = %v", got)
	}
	f.wantStock("S", a, 3, 0)
	f.wantStock("S", b, 3, 2)
	if fl := f.list("/warehouses/" + a + "/fulfillments"); len(fl) != 0 {
		t.Errorf("archived warehouse still has fulfillments %v", seqs(fl))
	}
}
