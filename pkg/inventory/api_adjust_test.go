package inventory_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/inventory"
)

// result finds the result of (sku, wh) in a status.
func result(t *testing.T, st inventory.Status, sku, wh string) inventory.Result {
	t.Helper()
	for _, r := range st.Items {
		if r.SKU == sku && r.Warehouse == wh {
			return r
		}
	}
	t.Fatalf("no result for %s@%s in %+v", sku, wh, st)
	return inventory.Result{}
}

func TestPutCreatesAndUpdates(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 5))
	id := f.adjust(http.MethodPut, body(
		record("A", w, 8, `,"bin_location":"Z-9","description":"recount","cost":2`),
		`{"sku":"N","warehouse_uuid":"`+w+`","available":"4"}`,
	))
	if st := f.status(id); st.RequestID != id || (st.Status != inventory.StatusQueued && st.Status != inventory.StatusApplied) {
		t.Errorf("status right after PUT: %+v", st)
	}
	st := f.applied(id)
	if len(st.Items) != 2 || st.Items[0].SKU != "A" || st.Items[1].SKU != "N" {
		t.Fatalf("results not in item order: %+v", st.Items)
	}
	a, n := result(t, st, "A", w), result(t, st, "N", w)
	if a.Result != inventory.ResultApplied || *a.OnHand != 8 || *a.Reserved != 0 || *a.Available != 8 {
		t.Errorf("A: %+v", a)
	}
	if n.Result != inventory.ResultCreated || *n.OnHand != 4 || *n.Available != 4 {
		t.Errorf("N: %+v", n)
	}
	rec := f.get("A", w)
	check(t, rec, 8, 0, 8)
	if *rec.BinLocation != "Z-9" || *rec.Description != "recount" || *rec.Cost != 2 {
		t.Errorf("fields: %+v", rec)
	}
	check(t, f.get("N", w), 4, 0, 4)
	// A single object works as well; absent fields stay, null clears.
	f.applied(f.adjust(http.MethodPut, `{"inventory":`+record("A", w, 2147483647, `,"bin_location":null`)+`}`))
	rec = f.get("A", w)
	if rec.BinLocation != nil || rec.Description == nil || *rec.Cost != 2 {
		t.Errorf("after clearing bin_location: %+v", rec)
	}
	check(t, rec, 2147483647, 0, 2147483647)
}

func TestPatchSkipsMissing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 5))
	st := f.applied(f.adjust(http.MethodPatch, body(record("A", w, 2, `,"cost":"1.25"`), record("M", w, 3))))
	if r := result(t, st, "M", w); r.Result != inventory.ResultSkipped || r.OnHand != nil || r.Available != nil {
		t.Errorf("missing record: %+v", r)
	}
	if r := result(t, st, "A", w); r.Result != inventory.ResultApplied || *r.OnHand != 2 {
		t.Errorf("existing record: %+v", r)
	}
	if recs := f.list(""); len(recs) != 1 || *recs[0].Cost != 1.25 {
		t.Errorf("after PATCH: %+v", recs)
	}
	r := f.c.Do(http.MethodPatch, "/inventories", body(record("M", w, 3), record("Q", w, 1)))
	if r.Status != http.StatusNotFound || errorMessage(t, r) != "Inventory not found" {
		t.Errorf("PATCH of missing records only: %d %s", r.Status, r.Body)
	}
}

// TestAvailableKeepsReserved is the double-deduction case: with reserved >
// 0, sending available sets on_hand = available + reserved.
func TestAvailableKeepsReserved(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 10))
	if err := f.reserve("A", w, 3); err != nil {
		t.Fatal(err)
	}
	check(t, f.get("A", w), 10, 3, 7)
	st := f.applied(f.adjust(http.MethodPatch, body(`{"sku":"A","warehouse_uuid":"`+w+`","available":5}`)))
	if r := result(t, st, "A", w); *r.OnHand != 8 || *r.Reserved != 3 || *r.Available != 5 {
		t.Errorf("result: %+v", r)
	}
	check(t, f.get("A", w), 8, 3, 5)
	// on_hand below reserved: available goes negative, reserved stays.
	f.applied(f.adjust(http.MethodPut, body(record("A", w, 1))))
	check(t, f.get("A", w), 1, 3, -2)
	if err := f.reserve("A", w, 1); err == nil {
		t.Error("reserved more than is available")
	}
	if err := f.reserve("A", w, -3); err != nil {
		t.Fatal(err)
	}
	check(t, f.get("A", w), 1, 0, 1)
}

// TestOneBadItemChangesNothing: one bad item among valid ones fails the
// whole call with 422 and nothing is queued or changed.
func TestOneBadItemChangesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	var items []string
	for i := range 49 {
		items = append(items, record(fmt.Sprintf("S%02d", i), w, 1))
	}
	f.create(items...)
	before := f.list("")
	var changed []string
	for i := range 49 {
		changed = append(changed, record(fmt.Sprintf("S%02d", i), w, 100+i))
	}
	bad := []struct{ name, item string }{
		{"no quantity", `{"sku":"S00","warehouse_uuid":"` + w + `"}`},
		{"both quantities", `{"sku":"X","warehouse_uuid":"` + w + `","on_hand":1,"available":1}`},
		{"negative", `{"sku":"X","warehouse_uuid":"` + w + `","on_hand":-1}`},
		{"empty sku", `{"sku":"","warehouse_uuid":"` + w + `","on_hand":1}`},
	}
	for _, b := range bad {
		for _, method := range []string{http.MethodPut, http.MethodPatch, http.MethodPost} {
			t.Run(method+" "+b.name, func(t *testing.T) {
				all := append(append([]string{}, changed[:25]...), append([]string{b.item}, changed[25:]...)...)
				r := f.c.Do(method, "/inventory", body(all...))
				if got, want := r.Status, http.StatusUnprocessableEntity; got != want {
					t.Errorf("got %d %s, want %d", got, r.Body, want)
				}
			})
		}
	}
	// FIFO per account: once a later adjustment is applied, anything queued
	// before it would have been too.
	f.applied(f.adjust(http.MethodPatch, body(record("S00", w, 1))))
	after := f.list("")
	for i := range before {
		if before[i].OnHand != after[i].OnHand || before[i].Available != after[i].Available {
			t.Errorf("%s changed: %d -> %d", before[i].SKU, before[i].OnHand, after[i].OnHand)
		}
	}
	if len(after) != 49 {
		t.Errorf("%d records", len(after))
	}
}

// TestAdjustmentsApplyInOrder: an account's adjustments apply in the order
// they were received.
func TestAdjustmentsApplyInOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 1))
	var last string
	for i := range 6 {
		method := http.MethodPut
		if i%2 == 1 {
			method = http.MethodPatch
		}
		last = f.adjust(method, body(record("A", w, 10*i)))
	}
	f.applied(last)
	check(t, f.get("A", w), 50, 0, 50)
}

func TestFiftyItems(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	var items []string
	for i := range 50 {
		items = append(items, record(fmt.Sprintf("S%02d", i), w, i))
	}
	st := f.applied(f.adjust(http.MethodPut, body(items...)))
	if len(st.Items) != 50 {
		t.Fatalf("%d results", len(st.Items))
	}
	for i, r := range st.Items {
		if r.Result != inventory.ResultCreated || *r.OnHand != int64(i) {
			t.Errorf("item %d: %+v", i, r)
		}
	}
	if r := f.c.Do(http.MethodPut, "/inventory", body(append(items, record("S50", w, 1))...)); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(errorMessage(t, r), "50") {
		t.Errorf("51 items: %d %s", r.Status, r.Body)
	}
}

func TestAdjustUnknownWarehouse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 1))
	for _, method := range []string{http.MethodPut, http.MethodPatch} {
		t.Run(method, func(t *testing.T) {
			r := f.c.Do(method, "/inventory", body(record("A", w, 5), record("A", "0190a4c2-0000-7000-8000-00000000dead", 5)))
			if r.Status != http.StatusNotFound || errorMessage(t, r) != "Warehouse not found" {
				t.Errorf("got %d %s, want 404 Warehouse not found", r.Status, r.Body)
			}
		})
	}
	f.applied(f.adjust(http.MethodPatch, body(record("A", w, 2))))
	check(t, f.get("A", w), 2, 0, 2)
}

func TestAdjustmentUnknownID(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// The last: a well-formed id of the account itself that was never
	// accepted (no record): not found, never "queued".
	for _, id := range []string{"0190a4c2-0000-7000-8000-000000000001", "nope", "A%2FB%20C%2B%23%3F", "%C3%9Cn%C3%AF", inventory.NewRequestID(f.acct.ID)} {
		t.Run(id, func(t *testing.T) {
			r := f.c.Do(http.MethodGet, "/inventory/adjustments/"+id, nil)
			if r.Status != http.StatusNotFound || errorMessage(t, r) != inventory.AdjustmentNotFoundMessage {
				t.Errorf("got %d %s, want 404 %s", r.Status, r.Body, inventory.AdjustmentNotFoundMessage)
			}
		})
	}
}
