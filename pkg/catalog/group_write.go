package catalog

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
)

// putGroup creates or replaces the variation group sku: one read of the
// group, one BatchGetItem of its old and new children, and one transaction
// that writes the group and every child that joins, leaves or gets new
// variation attributes, each conditioned on the version read. A product in
// another group, a missing product, a group as a child, a child without a
// variation attribute, or two children with the same values is a 422.
func putGroup(ctx context.Context, t store.Table, account, sku string, in groupInput) (VariationGroup, error) {
	var id int64
	return retry(ctx, func() (VariationGroup, error) {
		cur, err := getRecord(ctx, t, account, sku)
		if err != nil {
			return VariationGroup{}, err
		}
		next := &record{Product: Product{SKU: sku}}
		if cur != nil {
			if !cur.isGroup() {
				return VariationGroup{}, errs.Invalid("%s is a product: a variation group needs a SKU that no product uses", sku)
			}
			*next = *cur
		}
		recs, err := getRecords(ctx, t, account, append(slices.Clone(in.children), next.Children...))
		if err != nil {
			return VariationGroup{}, err
		}
		combos, err := childCombos(sku, in, recs)
		if err != nil {
			return VariationGroup{}, err
		}
		now := time.Now()
		old := next.Children
		next.Name, next.Description, next.ImageList = &in.name, in.description, in.images
		next.Keys, next.Children, next.Combos = in.keys, in.children, combos
		next.touch(now)
		if err := checkSize(next.Product); err != nil {
			return VariationGroup{}, err
		}
		if cur == nil {
			if id == 0 {
				if id, err = nextID(ctx, t, account); err != nil {
					return VariationGroup{}, err
				}
			}
			next.ID = id
		}
		changes := append([]change{put(next)}, memberChanges(sku, in, old, recs, now)...)
		if len(changes) > maxGroupWrites {
			return VariationGroup{}, errs.Invalid("this change writes %d products (the group and each child that joins, leaves or gets new variation attributes); one request writes at most %d: split it into several PUTs", len(changes), maxGroupWrites)
		}
		if err := commit(ctx, t, account, changes); err != nil {
			return VariationGroup{}, err
		}
		return next.group(), nil
	})
}

// childCombos checks the new children of group sku (recs holds them, keyed
// by SKU) and returns the id of each one's variation values, in order.
func childCombos(sku string, in groupInput, recs map[string]*record) ([]string, error) {
	combos := make([]string, len(in.children))
	for i, c := range in.children {
		r := recs[c]
		switch {
		case r == nil:
			return nil, errs.Invalid("child_skus: product %s not found", c)
		case r.isGroup():
			return nil, errs.Invalid("child_skus: %s is a variation group, not a product", c)
		case r.isChild() && *r.ParentSKU != sku:
			return nil, errs.Invalid("child_skus: %s already belongs to variation group %s", c, *r.ParentSKU)
		}
		id, missing := combo(r.CustomAttributes, in.keys)
		if missing != "" {
			return nil, errs.Invalid("child_skus: %s has no custom attribute %s, a variation attribute of the group", c, missing)
		}
		if j := slices.Index(combos[:i], id); j >= 0 {
			return nil, errs.Invalid("child_skus: %s and %s have the same values of %s", in.children[j], c, strings.Join(in.keys, ", "))
		}
		combos[i] = id
	}
	return combos, nil
}

// memberChanges are the writes to the children of group sku: each new child
// that joins or gets new variation attributes, and each old child that
// leaves (old lists them, recs holds them). Children that stay as they were
// are not written: any write to them writes the group too, so the group's
// version guards them.
func memberChanges(sku string, in groupInput, old []string, recs map[string]*record, now time.Time) []change {
	var out []change
	for _, c := range in.children {
		r := recs[c]
		if r.isChild() && slices.Equal(r.Keys, in.keys) {
			continue
		}
		next := *r
		next.ParentSKU, next.Keys = &sku, in.keys
		next.touch(now)
		out = append(out, put(&next))
	}
	for _, c := range old {
		r := recs[c]
		if slices.Contains(in.children, c) || r == nil {
			continue
		}
		next := *r
		next.ParentSKU, next.Keys = nil, nil
		next.touch(now)
		out = append(out, put(&next))
	}
	return out
}

// deleteGroup deletes the variation group sku and makes its children
// stand-alone; false if sku is not a group.
func deleteGroup(ctx context.Context, t store.Table, account, sku string) (bool, error) {
	return retry(ctx, func() (bool, error) {
		g, err := getRecord(ctx, t, account, sku)
		if err != nil || g == nil || !g.isGroup() {
			return false, err
		}
		return true, dissolve(ctx, t, account, g)
	})
}
