package inventory

import (
	"context"
	"fmt"
	"reflect"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/store"
)

// ProductCopy is a product write that changes what the inventory records
// of its SKU show: the fields to copy into them and the version they come
// from.
type ProductCopy struct {
	sku  string
	copy productCopy
	// version is the new pver; older compares the record's pver with
	// bound: a write applies to records of an older version (a deletion,
	// pver 0, to those of at most the deleted version: a product created
	// again starts over at version 1).
	version, bound int64
	older          string
}

// ProductCopyChanged decodes a stream record of a product whose shown
// fields changed, or that came or went; ok is false for anything else (a
// write of the product's quantity by channel sync changes no record).
func ProductCopyChanged(c store.Change) (ProductCopy, bool, error) {
	w, ok, err := catalog.ProductWritten(c)
	if err != nil || !ok {
		return ProductCopy{}, false, err
	}
	next := copyOf(w.New)
	if reflect.DeepEqual(copyOf(w.Old), next) {
		return ProductCopy{}, false, nil
	}
	if w.New == nil {
		return ProductCopy{sku: w.SKU, copy: next, version: 0, bound: w.Old.Version, older: "<="}, true, nil
	}
	return ProductCopy{sku: w.SKU, copy: next, version: w.New.Version, bound: w.New.Version, older: "<"}, true, nil
}

// CopyProducts writes each change's fields into the records of its SKU, in
// order: one consistent Query of the SKU's records, and one UpdateItem per
// record on the condition that it holds an older version of the product
// (or none: a record written before copies), so a late or repeated change
// never puts older fields over newer ones. Neither updated_at nor the
// quantities move.
func (s Service) CopyProducts(ctx context.Context, account string, changes []ProductCopy) error {
	for _, c := range changes {
		recs, err := s.stockOf(ctx, account, c.sku)
		if err != nil {
			return err
		}
		for _, rec := range recs {
			u := store.Update{Condition: "attribute_exists(#PK) AND (attribute_not_exists(#" + attrPVersion + ") OR #" + attrPVersion + " " + c.older + " :bound)"}
			u.Value(":bound", store.N(c.bound))
			u.SetValue(attrProduct, copyValue(c.copy))
			u.SetValue(attrPVersion, store.N(c.version))
			err := s.Table.Commit(ctx, []store.Write{u.Write(key(account, rec.SKU, rec.Warehouse))})
			if err != nil && !store.ConditionFailed(err) {
				return fmt.Errorf("copy product %q into %s: %w", c.sku, SKUWarehouse{rec.SKU, rec.Warehouse}, err)
			}
		}
	}
	return nil
}
