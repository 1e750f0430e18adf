package catalog

import (
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/sku"
)

// Filter selects products: by SKU (nil: all) and by modified_at.
type Filter struct {
	SKUs     []string
	Modified isotime.Range
}

// list names the list f selects, for its cursors.
func (f Filter) list() string {
	return paging.ListName("products", strings.Join(f.SKUs, "\x00"), f.Modified.String())
}

// filtered reports whether f selects anything less than every product.
func (f Filter) filtered() bool { return f.SKUs != nil || f.Modified.Active() }

// matching returns the records of recs that f's modified_at range holds,
// sorted by SKU.
func (f Filter) matching(recs []*record) []*record {
	recs = slices.DeleteFunc(recs, func(r *record) bool { return !f.Modified.Contains(r.modifiedAt()) })
	slices.SortFunc(recs, func(a, b *record) int { return strings.Compare(a.SKU, b.SKU) })
	return recs
}

// parseSKUs validates the values of a skus filter (every array form of it):
// empty values are ignored, nil means no filter, and an invalid SKU is a
// 422.
func parseSKUs(values []string) ([]string, error) {
	var out []string
	for _, s := range values {
		if s == "" {
			continue
		}
		if err := sku.Check("skus", s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
