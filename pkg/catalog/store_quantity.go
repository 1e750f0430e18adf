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

// ProductChange is what a stream record of a product item means to the
// products' derived quantities and to channel listings linked by equal
// SKU.
type ProductChange struct {
	SKU string
	// Created and Deleted are set when the SKU starts or stops naming a
	// product (a listing with that channel SKU links or unlinks itself).
	Created, Deleted bool
	// Groups are the variation groups whose quantity (the sum over their
	// children) may have changed: a child's quantity changed or it moved,
	// or a group's children changed.
	Groups []string
}

// ProductChanged decodes a stream record of the catalog; ok is false for
// any other item, and for a product change that matters to neither.
func ProductChanged(c store.Change) (ProductChange, bool) {
	if c.Kind != kindProduct {
		return ProductChange{}, false
	}
	pc := ProductChange{SKU: c.SK, Created: !c.Old.Exists(), Deleted: !c.New.Exists()}
	quantity := !store.Same(c.Old, c.New, attrQuantity)
	moved := !store.Same(c.Old, c.New, attrParent)
	for _, img := range []store.Image{c.Old, c.New} {
		if parent := img.Text(attrParent); parent != "" && (quantity || moved) {
			pc.Groups = appendNew(pc.Groups, parent)
		}
	}
	if c.New.Exists() && !store.Same(c.Old, c.New, attrChildren) {
		var r record
		if err := c.New.Decode(&r); err == nil && r.isGroup() {
			pc.Groups = appendNew(pc.Groups, c.SK)
		}
	}
	return pc, pc.Created || pc.Deleted || len(pc.Groups) > 0
}

// appendNew appends s to list unless it holds it.
func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
