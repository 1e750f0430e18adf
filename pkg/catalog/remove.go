package catalog

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/store"
)

// deleteProduct deletes the product sku; false if there is none. Deleting a
// child removes it from its group in the same transaction (and deletes the
// group with its last child, as a group needs one); deleting a group leaves
// its children stand-alone.
func deleteProduct(ctx context.Context, t store.Table, account, sku string) (bool, error) {
	return retry(ctx, func() (bool, error) {
		cur, err := getRecord(ctx, t, account, sku)
		if err != nil || cur == nil {
			return false, err
		}
		if cur.isGroup() {
			return true, dissolve(ctx, t, account, cur)
		}
		changes := []change{del(cur)}
		if cur.isChild() {
			group, err := getRecord(ctx, t, account, *cur.ParentSKU)
			if err != nil {
				return false, err
			}
			c, err := withoutChild(group, cur)
			if err != nil {
				return false, err
			}
			changes = append(changes, c)
		}
		return true, commit(ctx, t, account, changes)
	})
}

// withoutChild is the change to group when child leaves it: the group
// without the child, or its deletion if the child was its last.
func withoutChild(group, child *record) (change, error) {
	i := -1
	if group != nil {
		i = slices.Index(group.Children, child.SKU)
	}
	if i < 0 {
		return change{}, fmt.Errorf("product %q names group %q, which does not list it", child.SKU, *child.ParentSKU)
	}
	if len(group.Children) == 1 {
		return del(group), nil
	}
	next := *group
	next.Children = slices.Delete(slices.Clone(group.Children), i, i+1)
	next.Combos = slices.Delete(slices.Clone(group.Combos), i, i+1)
	next.touch(time.Now())
	return put(&next), nil
}

// dissolve deletes the group g and makes its children stand-alone, in one
// transaction.
func dissolve(ctx context.Context, t store.Table, account string, g *record) error {
	children, err := getRecords(ctx, t, account, g.Children)
	if err != nil {
		return err
	}
	now := time.Now()
	changes := []change{del(g)}
	for _, sku := range g.Children {
		c, ok := children[sku]
		if !ok {
			return fmt.Errorf("group %q lists %q, which does not exist", g.SKU, sku)
		}
		c.ParentSKU, c.Keys = nil, nil
		c.touch(now)
		changes = append(changes, put(c))
	}
	return commit(ctx, t, account, changes)
}
