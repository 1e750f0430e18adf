package listings_test

import (
	"fmt"
	"net/http"
	"testing"
)

// TestTotalPages: GET /listings sends Total-Pages = ceil(count / limit) on
// the first and the last page, with and without each filter, and those
// pages hold the listings they should.
func TestTotalPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t) // an Amazon listing of P and an eBay listing EB-P of P
	for i := range 5 {
		w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": fmt.Sprintf("X%d", i)}})
	}
	cases := []struct {
		query string
		count int
	}{
		{"", 7},
		{"channel_uuid=" + w.Amazon, 6},
		{"channel_uuid=" + w.EBay, 1},
		{"sku=P", 2},
		{"sku=p", 0}, // SKUs are case-sensitive
		{"sync_status=failed", 0},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			for _, limit := range []int{1, 2, 100} {
				w.C.CheckTotalPages(t, "/listings?"+c.query, c.count, limit)
			}
		})
	}
}
