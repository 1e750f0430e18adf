package listings_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// TestTotalPages: GET /listings sends Total-Pages = ceil(count / limit) on
// the first and the last page, with and without each filter, and those
// pages hold the listings they should, after listings are created, after
// some are deleted, and after many are created and deleted at once.
func TestTotalPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t) // an Amazon listing of P and an eBay listing EB-P of P
	for i := range 5 {
		w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": fmt.Sprintf("X%d", i)}})
	}
	check := func(t *testing.T, counts map[string]int) {
		t.Helper()
		for query, count := range counts {
			for _, limit := range []int{1, 2, 100} {
				w.C.CheckTotalPages(t, "/listings?"+query, count, limit)
			}
		}
	}
	counts := func(unlinked int) map[string]int {
		return map[string]int{
			"": 2 + unlinked, "channel_uuid=" + w.Amazon: 1 + unlinked, "channel_uuid=" + w.EBay: 1,
			"sku=P": 2, "sku=p": 0, // SKUs are case-sensitive
			"sync_status=failed": 0, "sync_status=unlinked": unlinked,
		}
	}
	t.Run("created", func(t *testing.T) { check(t, counts(5)) })
	for _, sku := range []string{"X1", "X3"} {
		w.must(http.MethodDelete, "/listings?channel_uuid="+w.Amazon+"&channel_sku="+sku, nil)
	}
	t.Run("deleted", func(t *testing.T) { check(t, counts(3)) })
	// Creations at once all count: each one's transaction meets the others
	// on the count item, and the loser writes again.
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			body := map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": fmt.Sprintf("Y%02d", i)}}
			if r := w.C.Do(http.MethodPut, "/listings", body); r.Status != http.StatusOK {
				t.Errorf("PUT Y%02d: %d %s", i, r.Status, r)
			}
		})
	}
	wg.Wait()
	t.Run("created at once", func(t *testing.T) { check(t, counts(15)) })
	for i := range 12 {
		wg.Go(func() {
			if r := w.C.Do(http.MethodDelete, fmt.Sprintf("/listings?channel_uuid=%s&channel_sku=Y%02d", w.Amazon, i), nil); r.Status != http.StatusOK {
				t.Errorf("DELETE Y%02d: %d %s", i, r.Status, r)
			}
		})
	}
	wg.Wait()
	t.Run("deleted at once", func(t *testing.T) { check(t, counts(3)) })
}
