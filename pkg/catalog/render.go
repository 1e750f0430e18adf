package catalog

import (
	"context"

	"github.com/multisell/multisell/pkg/store"
)

// loadGroup renders the group g with its children, read in one
// BatchGetItem per 100.
func loadGroup(ctx context.Context, t store.Table, account string, g *record) (Product, error) {
	children, err := getRecords(ctx, t, account, g.Children)
	if err != nil {
		return Product{}, err
	}
	return g.groupProduct(children), nil
}

// groupProduct renders the group g with its Variations, taken from children
// (keyed by SKU), in the group's order. Each inherited field the group has
// no value of comes from the first child that has one.
func (g *record) groupProduct(children map[string]*record) Product {
	p := g.product()
	p.Variations = make([]Product, 0, len(g.Children))
	for _, sku := range g.Children {
		c, ok := children[sku]
		if !ok {
			continue
		}
		for _, spec := range productFields {
			if spec.inherit != nil {
				spec.inherit(&p, &c.Product)
			}
		}
		p.Variations = append(p.Variations, c.product())
	}
	return withDefaults(p)
}

// render renders records, completing each group with its children: those
// among known (records already read, keyed by SKU) and the others read in
// one BatchGetItem per 100.
func render(ctx context.Context, t store.Table, account string, recs []*record, known map[string]*record) ([]Product, error) {
	var missing []string
	for _, r := range recs {
		for _, c := range r.Children {
			if known[c] == nil {
				missing = append(missing, c)
			}
		}
	}
	if len(missing) > 0 {
		more, err := getRecords(ctx, t, account, missing)
		if err != nil {
			return nil, err
		}
		for sku, r := range more {
			known[sku] = r
		}
	}
	out := make([]Product, len(recs))
	for i, r := range recs {
		if r.isGroup() {
			out[i] = r.groupProduct(known)
		} else {
			out[i] = r.product()
		}
	}
	return out, nil
}
