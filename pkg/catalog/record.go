package catalog

import (
	"encoding/json"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
)

// record is a product item's content: the product's own fields plus an
// optimistic-locking version and the group links. A group lists its
// children (and a hash of each child's variation values, for the uniqueness
// rule); a child holds its group's SKU and variation attributes, so one read
// renders it. The item's key attributes are added where it is written
// (store.go).
type record struct {
	Product
	// Version counts the item's writes; every write is conditioned on the
	// version it read.
	Version int64 `dynamodbav:"ver"`
	// Keys are the variation attributes: a group's own, or a child's group's.
	Keys []string `dynamodbav:"variation_keys,omitempty"`
	// Children are a group's child SKUs, in order.
	Children []string `dynamodbav:"child_skus,omitempty"`
	// Combos[i] identifies the variation values of Children[i].
	Combos []string `dynamodbav:"combos,omitempty"`
	// CountDue is a change to the counts that its transaction had no room
	// for, until channel sync settles it (store_counts.go).
	CountDue *countDue `dynamodbav:"count_due,omitempty"`
}

// bySKU keys records by SKU.
func bySKU(recs []*record) map[string]*record {
	out := make(map[string]*record, len(recs))
	for _, r := range recs {
		out[r.SKU] = r
	}
	return out
}

// quantity is the record's derived quantity (0 until first set, as GET
// shows it).
func (r *record) quantity() int64 {
	if r.Quantity == nil {
		return 0
	}
	return *r.Quantity
}

// isGroup reports whether the record is a variation group.
func (r *record) isGroup() bool { return len(r.Children) > 0 }

// isChild reports whether the record is a child of a variation group.
func (r *record) isChild() bool { return r.ParentSKU != nil }

// product renders the record's own fields with the API defaults and its
// conditional keys; a group's Variations are left to the caller.
func (r *record) product() Product {
	p := withDefaults(r.Product)
	switch {
	case r.isGroup():
		p.VariationKeys = r.Keys
	case r.isChild():
		p.VariationFields = make(map[string]any, len(r.Keys))
		for _, k := range r.Keys {
			p.VariationFields[k] = p.CustomAttributes[k]
		}
	}
	return p
}

// size estimates the record's attributes in bytes: their JSON, which is
// never smaller than DynamoDB's measure of them.
func (r *record) size() int {
	b, _ := json.Marshal(r) // cannot fail: strings, numbers, booleans, slices and maps
	return len(b)
}

// modifiedAt is the record's modified_at as a time.
func (r *record) modifiedAt() time.Time {
	m, _ := time.Parse(time.RFC3339, r.ModifiedAt)
	return m
}

// touch prepares r for a write at now: its version goes up by one (a new
// record gets version 1) and its modified_at moves on.
func (r *record) touch(now time.Time) {
	r.Version++
	r.ModifiedAt = nextModified(r.ModifiedAt, now)
}

// nextModified is the modified_at of a write at now to a record last
// modified at prev: now, but always at least a second after prev, so that
// modified_at changes on every write even within one second.
func nextModified(prev string, now time.Time) string {
	now = now.UTC().Truncate(time.Second)
	if p, err := time.Parse(time.RFC3339, prev); err == nil && !now.After(p) {
		now = p.Add(time.Second)
	}
	return isotime.Format(now)
}

// change is one optimistic write of a product item: the record's new state
// (nil deletes it) and the version it was read at (0: it must not exist).
type change struct {
	sku  string
	next *record
	read int64
	// group: the record deleted is a variation group (for the counts).
	group bool
}

// put is the change that writes r, touched once since it was read.
func put(r *record) change { return change{sku: r.SKU, next: r, read: r.Version - 1} }

// del is the change that deletes r.
func del(r *record) change { return change{sku: r.SKU, read: r.Version, group: r.isGroup()} }

// withDefaults returns p with its unset lists and objects empty rather than
// null, as the API returns them.
func withDefaults(p Product) Product {
	if p.Features == nil {
		p.Features = []string{}
	}
	if p.ImageList == nil {
		p.ImageList = []string{}
	}
	if p.CustomAttributes == nil {
		p.CustomAttributes = map[string]any{}
	}
	if p.Quantity == nil {
		p.Quantity = new(int64)
	}
	return p
}
