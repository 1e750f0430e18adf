package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/errs"
)

// MaxChildren is the most children a variation group has: deleting a group
// writes it and every child in one transaction of at most 100 writes.
const MaxChildren = 99

// maxGroupWrites is the most items one transaction writes.
const maxGroupWrites = 100

// VariationGroup is a variation group as returned by the API (see
// docs/catalog.md).
type VariationGroup struct {
	SKU                 string   `json:"sku"`
	Name                string   `json:"name"`
	Description         *string  `json:"description"`
	Images              []string `json:"images"`
	ChildSKUs           []string `json:"child_skus"`
	VariationAttributes []string `json:"variation_attributes"`
	ModifiedAt          string   `json:"modified_at"`
}

// group renders the group record g as a VariationGroup.
func (g *record) group() VariationGroup {
	v := VariationGroup{
		SKU: g.SKU, Description: g.Description, Images: g.ImageList,
		ChildSKUs: g.Children, VariationAttributes: g.Keys, ModifiedAt: g.ModifiedAt,
	}
	if g.Name != nil {
		v.Name = *g.Name
	}
	if v.Images == nil {
		v.Images = []string{}
	}
	return v
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

// errGroupMoved is a child read before its group changed (deleted, or the
// child left it) and the group read after: a lost race, read again.
var errGroupMoved = errors.New("the group changed meanwhile")

// withChild returns group (as read; nil if there is none) updated and
// touched for the new state of its child: the child's variation values,
// which must be complete and unique in the group.
func withChild(group, child *record, now time.Time) (*record, error) {
	i := -1
	if group != nil {
		i = slices.Index(group.Children, child.SKU)
	}
	if i < 0 {
		return nil, fmt.Errorf("product %q names group %q, which does not list it: %w", child.SKU, *child.ParentSKU, errGroupMoved)
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
	next := *group
	next.Combos = slices.Clone(group.Combos)
	next.Combos[i] = id
	next.touch(now)
	return &next, nil
}

// withoutChild is the change to group when child leaves it: the group
// without the child, or its deletion if the child was its last.
func withoutChild(group, child *record) (change, error) {
	i := -1
	if group != nil {
		i = slices.Index(group.Children, child.SKU)
	}
	if i < 0 {
		return change{}, fmt.Errorf("product %q names group %q, which does not list it: %w", child.SKU, *child.ParentSKU, errGroupMoved)
	}
	if len(group.Children) == 1 {
		return del(group), nil
	}
	next := *group
	next.Children = slices.Delete(slices.Clone(group.Children), i, i+1)
	next.Combos = slices.Delete(slices.Clone(group.Combos), i, i+1)
	next.touch(time.Now())
	return put(&next), nil
}

// dissolution is the changes that delete the group g and make its children
// (children holds them, keyed by SKU) stand-alone.
func dissolution(g *record, children map[string]*record, now time.Time) ([]change, error) {
	changes := []change{del(g)}
	for _, sku := range g.Children {
		c, ok := children[sku]
		if !ok {
			return nil, fmt.Errorf("group %q lists %q, which does not exist", g.SKU, sku)
		}
		next := *c
		next.ParentSKU, next.Keys = nil, nil
		next.touch(now)
		changes = append(changes, put(&next))
	}
	return changes, nil
}

// childCombos checks the new children of group sku (recs holds them, keyed
// by SKU) and returns the id of each one's variation values, in order.
func childCombos(sku string, in GroupInput, recs map[string]*record) ([]string, error) {
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
func memberChanges(sku string, in GroupInput, old []string, recs map[string]*record, now time.Time) []change {
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

// sameCombo reports whether the child next, a new state of cur, keeps the
// variation values cur had, all of them: its group then holds nothing that
// changes, and the write is the child's alone. The child's own version
// guards its group's variation attributes, since changing them rewrites it.
func sameCombo(cur, next *record) bool {
	if cur == nil {
		return false
	}
	was, _ := combo(cur.CustomAttributes, cur.Keys)
	is, missing := combo(next.CustomAttributes, next.Keys)
	return missing == "" && is == was
}
