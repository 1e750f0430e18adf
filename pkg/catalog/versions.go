package catalog

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/store"
)

// Versioned is a product's own fields and the version of its item, which
// moves on with every write of it: what a domain that keeps a copy of
// product fields (the inventory records) compares to never put an older
// copy over a newer one.
type Versioned struct {
	Product
	Version int64
}

// versioned is the record's product and version.
func (r *record) versioned() *Versioned { return &Versioned{Product: r.Product, Version: r.Version} }

// Versions returns the account's products with the given SKUs and their
// versions, keyed by SKU (unknown SKUs absent): one strongly consistent
// BatchGetItem per 100 distinct SKUs, for a write that copies them.
func (s Service) Versions(ctx context.Context, account string, skus []string) (map[string]Versioned, error) {
	recs, err := getRecords(ctx, s.Table, account, skus, strong)
	if err != nil {
		return nil, fmt.Errorf("read product versions: %w", err)
	}
	out := make(map[string]Versioned, len(recs))
	for sku, r := range recs {
		out[sku] = *r.versioned()
	}
	return out, nil
}

// ProductWrite is a stream record of a product item: its SKU and the
// product before and after the write (nil when absent).
type ProductWrite struct {
	SKU      string
	Old, New *Versioned
}

// ProductWritten decodes a stream record of a product item; ok is false for
// any other item.
func ProductWritten(c store.Change) (w ProductWrite, ok bool, err error) {
	if c.Kind != kindProduct {
		return w, false, nil
	}
	w.SKU = c.SK
	for _, s := range []struct {
		img store.Image
		to  **Versioned
	}{{c.Old, &w.Old}, {c.New, &w.New}} {
		if !s.img.Exists() {
			continue
		}
		var r record
		if err := s.img.Decode(&r); err != nil {
			return w, false, fmt.Errorf("decode product %q: %w", c.SK, err)
		}
		*s.to = r.versioned()
	}
	return w, true, nil
}
