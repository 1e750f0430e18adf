package listings_test

import (
	"fmt"
	"net/http"
	"strconv"
	"testing"
)

// TestTotalPages: GET /listings sends Total-Pages = ceil(count / limit) on
// the first and the last page, with and without each filter, and its pages
// hold every listing once.
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
				last := max(1, (c.count+limit-1)/limit)
				seen := 0
				for page := 1; page <= last; page++ {
					q := fmt.Sprintf("/listings?%s&limit=%d&page=%d", c.query, limit, page)
					r := w.must(http.MethodGet, q, nil)
					if got, want := r.Header.Get("Total-Pages"), strconv.Itoa(last); (page == 1 || page == last) && got != want {
						t.Errorf("%s: Total-Pages %q, want %s", q, got, want)
					}
					var items []map[string]any
					r.JSON(t, &items)
					seen += len(items)
				}
				if got, want := seen, c.count; got != want {
					t.Errorf("limit %d: %d listings over the pages, want %d", limit, got, want)
				}
			}
		})
	}
}
