package catalog_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// TestRecount: Recount puts the counts of /products and /variation_groups
// back to the lists' sizes after they were deleted or put off, and settles
// a count due left on a product (then the count is not added twice), so
// that Total-Pages is exact.
func TestRecount(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	for i := range 4 {
		c.put(fmt.Sprintf("P%d", i), map[string]any{"name": "p"})
	}
	c.putGroup("G", groupBody("g", c.makeChildren("G", "S", "M")...))
	c.putGroup("H", groupBody("h", c.makeChildren("H", "S")...))
	c.expect(200, "DELETE", productPath("P3"), nil)
	c.env.Drain(t)
	svc := c.env.Deps.Catalog()
	products := store.CountName{List: "products", Value: store.CountAll}
	check := func(t *testing.T) {
		t.Helper()
		for _, limit := range []int{1, 3} {
			c.CheckTotalPages(t, "/products", 8, limit)
			c.CheckTotalPages(t, "/variation_groups", 2, limit)
		}
	}
	c.env.CheckRecount(t, c.acct.ID, store.Counts{products: 5, {List: "products", Value: store.CountAll, Attr: "groups"}: -1}, svc.Recount, check)
	t.Run("count due", func(t *testing.T) {
		ctx := context.Background()
		due := store.Update{Set: []string{"#count_due = :due"}}
		due.Value(":due", &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
			"token": store.S("recount"), "products": store.N(3), "groups": store.N(1),
		}})
		skewed := store.Counts{products: 3}
		if err := c.env.Deps.Table.Commit(ctx, append(skewed.Writes(c.acct.ID), due.Write(store.Key(store.PK(c.acct.ID, "P"), "P0")))); err != nil {
			t.Fatal(err)
		}
		if err := svc.Recount(ctx, c.acct.ID); err != nil {
			t.Fatal(err)
		}
		c.env.Drain(t) // channel sync finds the due settled
		if img, err := c.env.Deps.Table.Item(ctx, store.Key(store.PK(c.acct.ID, "P"), "P0"), true); err != nil || img.Has("count_due") {
			t.Errorf("the count due is left on the product (%v)", err)
		}
		check(t)
	})
}
