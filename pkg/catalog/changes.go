package catalog

import "github.com/multisell/multisell/pkg/store"

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
