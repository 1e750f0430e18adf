package catalog

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/store"
)

// attrQuantity is the derived quantity on a product item; attrChildren and
// attrParent link groups and children.
const (
	attrQuantity = "quantity"
	attrChildren = "child_skus"
	attrParent   = "parent_sku"
)

// setQuantity stores a product's derived quantity when it differs: one
// UpdateItem that also moves the item's version on, so an upsert that read
// the item before fails its condition and re-reads (its Put would
// otherwise carry the old quantity back). A product that does not exist
// is left alone.
func setQuantity(ctx context.Context, t store.Table, account, sku string, q int64) error {
	u := store.Update{
		Add:       []string{"#ver :one"},
		Condition: "attribute_exists(#PK) AND (attribute_not_exists(#quantity) OR #quantity <> :quantity)",
	}
	u.SetValue(attrQuantity, store.N(q))
	u.Value(":one", store.N(1))
	err := t.Commit(ctx, []store.Write{u.Write(productKey(account, sku))})
	if err != nil && !store.ConditionFailed(err) {
		return fmt.Errorf("set quantity of product %q: %w", sku, err)
	}
	return nil
}
