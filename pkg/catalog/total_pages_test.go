package catalog_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/multisell/multisell/pkg/catalog"
)

// checkTotalPages checks Total-Pages of GET list at limit on page 1 and on
// the last page: ceil(count / limit) (1 for an empty list), and the last
// page holding the rest.
func (c *catalogClient) checkTotalPages(list string, count, limit int) {
	c.t.Helper()
	want := max(1, (count+limit-1)/limit)
	for _, page := range []int{1, want} {
		r := c.expect(200, "GET", fmt.Sprintf("%s?limit=%d&page=%d", list, limit, page), nil)
		if got := r.Header.Get("Total-Pages"); got != strconv.Itoa(want) {
			c.t.Errorf("%s page %d of limit %d (%d items): Total-Pages %q, want %d", list, page, limit, count, got, want)
		}
		var items []map[string]any
		r.JSON(c.t, &items)
		wantItems := min(limit, count)
		if page == want {
			wantItems = count - (want-1)*limit
		}
		if len(items) != wantItems {
			c.t.Errorf("%s page %d of limit %d: %d items, want %d", list, page, limit, len(items), wantItems)
		}
	}
}

// TestTotalPages: Total-Pages of /products and /variation_groups is exact
// on the first and the last page after creates, deletes, and the creation
// and dissolution of groups, the largest (whose transaction has no room
// for the counts: channel sync settles them) included.
func TestTotalPages(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	check := func(products, groups int) {
		t.Helper()
		c.env.Drain(t) // the counts a full group's transaction left to channel sync
		for _, limit := range []int{1, 3, 100} {
			c.checkTotalPages("/products", products, limit)
			c.checkTotalPages("/variation_groups", groups, limit)
		}
	}
	check(0, 0)
	for i := range 5 {
		c.put(fmt.Sprintf("P%d", i), map[string]any{"name": "p"})
	}
	c.put("P0", map[string]any{"name": "renamed"}) // an update counts nothing
	check(5, 0)
	c.expect(200, "DELETE", productPath("P1"), nil)
	c.expect(404, "DELETE", productPath("P1"), nil)
	check(4, 0)
	kids := c.makeChildren("S", "S", "M")
	c.putGroup("S", groupBody("small", kids...))
	check(7, 1)
	var big []string
	for i := range catalog.MaxChildren {
		big = append(big, c.makeChildren("B", fmt.Sprintf("%03d", i))...)
	}
	c.putGroup("B", groupBody("big", big...)) // 100 writes: the counts ride on a child
	check(7+catalog.MaxChildren+1, 2)
	c.expect(200, "DELETE", groupPath("B"), nil) // the children stay, stand-alone
	check(7+catalog.MaxChildren, 1)
	c.expect(200, "DELETE", productPath(kids[0]), nil)
	check(6+catalog.MaxChildren, 1)
	c.expect(200, "DELETE", productPath(kids[1]), nil) // the last child: the group goes too
	check(4+catalog.MaxChildren, 0)
}
