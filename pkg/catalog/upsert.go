package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
)

// upsert creates or updates the product sku with the validated input and
// returns it as now stored. Creating needs a name. Writing a child also
// writes its group (its modified_at, and the child's variation values for
// the uniqueness rule) in the same transaction, and a child must keep a
// value for each of its group's variation attributes, unique in the group.
func upsert(ctx context.Context, t store.Table, account, sku string, in productInput) (Product, error) {
	var id int64
	return retry(ctx, func() (Product, error) {
		cur, err := getRecord(ctx, t, account, sku)
		if err != nil {
			return Product{}, err
		}
		next := &record{Product: Product{SKU: sku}}
		if cur != nil {
			*next = *cur
		} else if !in.hasName {
			return Product{}, errs.Invalid("name is required to create a product")
		}
		next.Product = in.apply(next.Product)
		next.touch(time.Now())
		if err := checkSize(next.Product); err != nil {
			return Product{}, err
		}
		if cur == nil {
			if id == 0 {
				if id, err = nextID(ctx, t, account); err != nil {
					return Product{}, err
				}
			}
			next.ID = id
		}
		changes := []change{put(next)}
		if next.isChild() {
			group, err := childOfGroup(ctx, t, account, next)
			if err != nil {
				return Product{}, err
			}
			changes = append(changes, put(group))
		}
		if err := commit(ctx, t, account, changes); err != nil {
			return Product{}, err
		}
		if next.isGroup() {
			return loadGroup(ctx, t, account, next)
		}
		return next.product(), nil
	})
}

// childOfGroup reads the group of the changed child and returns it updated
// (touched) for the child's new state: the child's variation values, which
// must be complete and unique in the group.
func childOfGroup(ctx context.Context, t store.Table, account string, child *record) (*record, error) {
	group, err := getRecord(ctx, t, account, *child.ParentSKU)
	if err != nil {
		return nil, err
	}
	i := -1
	if group != nil {
		i = slices.Index(group.Children, child.SKU)
	}
	if i < 0 {
		return nil, fmt.Errorf("product %q names group %q, which does not list it", child.SKU, *child.ParentSKU)
	}
	id, missing := combo(child.CustomAttributes, group.Keys)
	if missing != "" {
		return nil, errs.Invalid("custom_attributes.%s is required: %s is a child of variation group %s, which varies on %s",
			missing, child.SKU, group.SKU, strings.Join(group.Keys, ", "))
	}
	if j := slices.Index(group.Combos, id); j >= 0 && j != i {
		return nil, errs.Invalid("%s would have the same values of %s as %s, another child of variation group %s",
			child.SKU, strings.Join(group.Keys, ", "), group.Children[j], group.SKU)
	}
	group.Combos = slices.Clone(group.Combos)
	group.Combos[i] = id
	group.touch(time.Now())
	return group, nil
}
