package inventory_test

import (
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/store"
)

// TestRecount: Recount puts the counts of GET /inventory, whole and per
// warehouse (an archived one's, and an empty one's), back to the lists'
// sizes after they were deleted or put off, so that Total-Pages is exact.
func TestRecount(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w1, w2, w3 := f.warehouse("One"), f.warehouse("Two"), f.warehouse("Empty")
	f.create(record("A", w1, 1), record("B", w1, 2), record("C", w1, 0), record("A", w2, 5), record("D", w2, 1))
	f.applied(f.adjust(http.MethodPut, body(record("E", w1, 3))))
	if r := f.c.Do(http.MethodPut, "/warehouses/"+w2, `{"warehouse":{"archived":true}}`); r.Status != http.StatusOK {
		t.Fatalf("archive: %d %s", r.Status, r.Body)
	}
	skew := store.Counts{{List: "inventory", Value: store.CountAll}: 3, store.CountPer("inventory", "wh", w2): -2, store.CountPer("inventory", "wh", w3): 1}
	f.env.CheckRecount(t, f.acct.ID, skew, f.env.Deps.Inventory().Recount, func(t *testing.T) {
		for query, n := range map[string]int{"": 6, "warehouse_uuid=" + w1: 4, "warehouse_uuid=" + w2: 2, "warehouse_uuid=" + w3: 0} {
			for _, limit := range []int{1, 4} {
				f.c.CheckTotalPages(t, "/inventory?"+query, n, limit)
			}
		}
	})
}
