package catalog_test

import (
	"fmt"
	"testing"

	"github.com/multisell/multisell/pkg/catalog"
)

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
			c.CheckTotalPages(c.t, "/products", products, limit)
			c.CheckTotalPages(c.t, "/variation_groups", groups, limit)
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
