package listings_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/store"
)

// TestRecount: Recount puts the counts of GET /listings, all and per
// channel, back to the lists' sizes after they were deleted or put off,
// so that Total-Pages is exact, a channel without listings included.
func TestRecount(t *testing.T) {
	t.Parallel()
	w := newWorld(t) // an Amazon listing of P and an eBay listing EB-P of P
	for i := range 3 {
		w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": fmt.Sprintf("X%d", i)}})
	}
	w.must(http.MethodDelete, "/listings?channel_uuid="+w.EBay+"&channel_sku=EB-P", nil)
	skew := store.Counts{{List: "listings", Value: store.CountAll}: 3, store.CountPer("listings", "ch", w.Amazon): -2, store.CountPer("listings", "ch", w.EBay): 2}
	w.Env.CheckRecount(t, w.Acct.ID, skew, w.Env.Deps.Listings().Recount, func(t *testing.T) {
		for query, n := range map[string]int{"": 4, "channel_uuid=" + w.Amazon: 4, "channel_uuid=" + w.EBay: 0} {
			for _, limit := range []int{1, 3} {
				w.C.CheckTotalPages(t, "/listings?"+query, n, limit)
			}
		}
	})
}
