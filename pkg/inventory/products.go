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

// copiersAtOnce is how many SKUs' copies CopyProducts writes at once.
const copiersAtOnce = 8

// CopyProducts writes each change's fields into the records of its SKU, a
// SKU's changes in order and up to copiersAtOnce SKUs at once: one
// consistent Query of the SKU's records (none when known holds them, as
// BySKU read them), and one UpdateItem per record on the condition that it
// holds an older version of the product (or none: a record written before
// copies), so a late or repeated change never puts older fields over newer
// ones. Neither updated_at nor the quantities move.
func (s Service) CopyProducts(ctx context.Context, account string, changes []ProductCopy, known map[string][]Record) error {
	var (
		skus  []string
		bySKU = map[string][]ProductCopy{}
	)
	for _, c := range changes {
		if _, ok := bySKU[c.sku]; !ok {
			skus = append(skus, c.sku)
		}
		bySKU[c.sku] = append(bySKU[c.sku], c)
	}
	return store.Each(len(skus), copiersAtOnce, func(i int) error {
		sku := skus[i]
		recs, ok := known[sku]
		if !ok {
			var err error
			if recs, err = stockOf(ctx, s.Table, account, sku); err != nil {
				return err
			}
		}
		for _, c := range bySKU[sku] {
			if err := s.copyInto(ctx, account, c, recs); err != nil {
				return err
			}
		}
		return nil
	})
}

// copyInto writes the change c into the records recs of its SKU.
func (s Service) copyInto(ctx context.Context, account string, c ProductCopy, recs []Record) error {
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
	return nil
}

// productCopy is the product's fields an inventory record shows, copied
// into the record (attribute prod) so that a page of records is one Query:
// written when the record is created and kept current by the change
// stream (CopyProducts). The record's pver is the version of the product
// it came from (0: there was no product).
type productCopy struct {
	Name          *string  `dynamodbav:"name,omitempty"`
	PackageLength *float64 `dynamodbav:"package_length,omitempty"`
	PackageWidth  *float64 `dynamodbav:"package_width,omitempty"`
	PackageHeight *float64 `dynamodbav:"package_height,omitempty"`
	PackageWeight *float64 `dynamodbav:"package_weight,omitempty"`
	Cost          *float64 `dynamodbav:"cost,omitempty"`
	UPC           *string  `dynamodbav:"upc,omitempty"`
	EAN           *string  `dynamodbav:"ean,omitempty"`
	ISBN          *string  `dynamodbav:"isbn,omitempty"`
	GTIN          *string  `dynamodbav:"gtin,omitempty"`
	GCID          *string  `dynamodbav:"gcid,omitempty"`
	EPID          *string  `dynamodbav:"epid,omitempty"`
	ASIN          *string  `dynamodbav:"asin,omitempty"`
}

// Attribute names of the copy and of the product version it came from.
const (
	attrProduct  = "prod"
	attrPVersion = "pver"
)

// copyOf is the copy of the product's shown fields (the zero copy for no
// product).
func copyOf(p *catalog.Versioned) productCopy {
	if p == nil {
		return productCopy{}
	}
	return productCopy{
		Name:          p.Name,
		PackageLength: p.PackageLength, PackageWidth: p.PackageWidth,
		PackageHeight: p.PackageHeight, PackageWeight: p.PackageWeight,
		Cost: p.Cost,
		UPC:  p.UPC, EAN: p.EAN, ISBN: p.ISBN, GTIN: p.GTIN, GCID: p.GCID, EPID: p.EPID, ASIN: p.ASIN,
	}
}

// versionOf is the version a copy of p carries: 0 for no product.
func versionOf(p *catalog.Versioned) int64 {
	if p == nil {
		return 0
	}
	return p.Version
}

// products reads the products of the items' SKUs to copy into the records
// they create: one strongly consistent BatchGetItem, keyed by SKU.
func (s Service) products(ctx context.Context, account string, items []Item) (productsBySKU, error) {
	skus := make([]string, len(items))
	for i, it := range items {
		skus[i] = it.SKU
	}
	ps, err := s.Catalog.Versions(ctx, account, skus)
	if err != nil {
		return nil, fmt.Errorf("read the products to copy: %w", err)
	}
	return ps, nil
}

// productsBySKU are products read to be copied, keyed by SKU.
type productsBySKU map[string]catalog.Versioned

// product is the product of sku in ps, nil if there is none.
func product(ps productsBySKU, sku string) *catalog.Versioned {
	if p, ok := ps[sku]; ok {
		return &p
	}
	return nil
}

// withProducts returns the records as the API shows them: with the product
// fields they hold, and for records written before copies (no pver) with
// those of the product read now (one BatchGetItem, only when there are
// such records).
func (s Service) withProducts(ctx context.Context, account string, recs []Record) ([]Inventory, error) {
	var old []string
	for _, rec := range recs {
		if rec.PVersion == nil {
			old = append(old, rec.SKU)
		}
	}
	var joined map[string]catalog.Product
	if len(old) > 0 {
		var err error
		if joined, err = s.Catalog.Lookup(ctx, account, old); err != nil {
			return nil, fmt.Errorf("look up products: %w", err)
		}
	}
	out := make([]Inventory, len(recs))
	for i, rec := range recs {
		c := rec.Product
		if rec.PVersion == nil {
			c = copyOf(&catalog.Versioned{Product: joined[rec.SKU]})
		}
		out[i] = view(rec, c)
	}
	return out, nil
}
