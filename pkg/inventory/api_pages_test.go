package inventory_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/inventory"
)

// TestTotalPages checks that Total-Pages is ceil(count / limit) on the
// first and the last page of the list, with and without each filter, after
// creates by POST and by PUT through the consumer, and after a warehouse
// is archived (its records stay in the list). Records are never deleted.
func TestTotalPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w1, w2 := f.warehouse("One"), f.warehouse("Two")
	f.create(append(numbered("A", w1, 5), record("B0", w2, 1), record("A0", w2, 1))...)
	check := func(t *testing.T, want map[string]int) {
		t.Helper()
		for query, count := range want {
			for _, limit := range []int{1, 2, 3, 100} {
				f.c.CheckTotalPages(t, "/inventory?"+query, count, limit)
			}
			if got := len(f.list(query + "&limit=100")); got != count {
				t.Errorf("?%s: %d records, want %d", query, got, count)
			}
		}
	}
	// A walk of a created_at range keeps the count taken on its first page
	// (the pager's bounded count), and a jump to a page joins the walk of
	// the nearest cursor: each phase's ranges are new lists, by their day.
	counts := func(day, all, one, two int) map[string]int {
		min := fmt.Sprintf("created_at_min=2000-01-%02d", day)
		return map[string]int{
			"": all, "warehouse_uuid=" + w1: one, "warehouse_uuid=" + w2: two,
			min: all, fmt.Sprintf("created_at_max=2000-01-%02d", day): 0,
			min + "&warehouse_uuid=" + w2: two,
			"sku=A0&sku=B0":               3, "updated_at_min=2000-01-01": all,
		}
	}
	t.Run("after POST", func(t *testing.T) { check(t, counts(1, 7, 5, 2)) })
	f.applied(f.adjust(http.MethodPut, body(record("C0", w2, 1), record("C1", w2, 1), record("A1", w1, 9))))
	t.Run("after PUT", func(t *testing.T) { check(t, counts(2, 9, 5, 4)) })
	if r := f.c.Do(http.MethodPut, "/warehouses/"+w2, `{"warehouse":{"archived":true}}`); r.Status != http.StatusOK {
		t.Fatalf("archive: %d %s", r.Status, r.Body)
	}
	t.Run("after archiving", func(t *testing.T) { check(t, counts(3, 9, 5, 4)) })
}

// TestWarehousePagesApart checks that each warehouse's list keeps its own
// pages: a jump into one warehouse's list never starts from where a page of
// another's starts. Their counts share one item, and so its version, so a
// cursor of the other list with the same limit would pass for a live one of
// this list (the walk from it found nothing: page 5 of 5 records was empty).
func TestWarehousePagesApart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w1, w2 := f.warehouse("One"), f.warehouse("Two")
	f.create(append(numbered("A", w1, 5), numbered("B", w2, 4)...)...)
	for _, tt := range []struct {
		warehouse string
		count     int
	}{{w2, 4}, {w1, 5}} { // w2's page 4 is the highest page a jump to w1's page 5 looks at
		for _, limit := range []int{1, 2} {
			f.c.CheckTotalPages(t, "/inventory?warehouse_uuid="+tt.warehouse, tt.count, limit)
		}
	}
}

// numbered are n records at the warehouse, SKUs prefix0 to prefix<n-1>,
// each with its number as on_hand.
func numbered(prefix, warehouse string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = record(fmt.Sprintf("%s%d", prefix, i), warehouse, i)
	}
	return out
}

// TestProductFieldsCopied checks that a record shows its product's fields
// from when it is created (by POST and by PUT), and a product renamed,
// deleted and created again afterwards through the change stream.
func TestProductFieldsCopied(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.product("P", `{"name":"Old","upc":"012345678905","cost":2.5}`)
	f.create(record("P", w, 1))
	f.applied(f.adjust(http.MethodPut, body(record("P", f.warehouse("X"), 1))))
	names := func() []string {
		var out []string
		for _, r := range f.list("") {
			name := "<nil>"
			if r.ProductName != nil {
				name = *r.ProductName
			}
			out = append(out, name)
		}
		return out
	}
	wait := func(t *testing.T, want string) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			got := names()
			if fmt.Sprint(got) == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("product names %v, want %s", got, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	wait(t, "[Old Old]")
	if rec := f.list("")[0]; rec.UPC == nil || *rec.UPC != "012345678905" || rec.Cost == nil || *rec.Cost != 2.5 {
		t.Errorf("copied fields: %+v", rec)
	}
	f.product("P", `{"name":"New","upc":"012345678905","cost":2.5}`)
	t.Run("renamed", func(t *testing.T) { wait(t, "[New New]") })
	if r := f.c.Do(http.MethodDelete, "/products/P", nil); r.Status != http.StatusOK {
		t.Fatalf("delete P: %d %s", r.Status, r)
	}
	t.Run("deleted", func(t *testing.T) { wait(t, "[<nil> <nil>]") })
	f.product("P", `{"name":"Again"}`)
	t.Run("created again", func(t *testing.T) { wait(t, "[Again Again]") })
}

// TestCreateInFiftyWarehouses checks the POST of the most records in as
// many warehouses: all or none, and counted right either way.
func TestCreateInFiftyWarehouses(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	whs := make([]string, inventory.MaxItems)
	items := make([]string, len(whs))
	for i := range whs {
		whs[i] = f.warehouse(fmt.Sprintf("W%02d", i))
		items[i] = record("S", whs[i], 1)
	}
	f.create(record("S", whs[len(whs)-1], 1)) // the last one exists
	if r := f.c.Do(http.MethodPost, "/inventory", body(items...)); r.Status != http.StatusConflict {
		t.Fatalf("POST with one existing: %d %s", r.Status, r.Body)
	}
	if got := len(f.list("")); got != 1 {
		t.Errorf("after the conflict: %d records, want 1", got)
	}
	f.create(items[:len(items)-1]...)
	r := f.c.Do(http.MethodGet, "/inventory?limit=7", nil)
	if got, want := r.Header.Get("Total-Pages"), "8"; got != want {
		t.Errorf("Total-Pages %q, want %s", got, want)
	}
	for _, w := range []string{whs[0], whs[len(whs)-1]} {
		if r := f.c.Do(http.MethodGet, "/inventory?warehouse_uuid="+w, nil); r.Header.Get("Total-Pages") != "1" || len(f.list("warehouse_uuid="+w)) != 1 {
			t.Errorf("warehouse %s: Total-Pages %q", w, r.Header.Get("Total-Pages"))
		}
	}
}
