package inventory

import (
	"fmt"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/sku"
)

// MaxItems is the most items one POST, PUT or PATCH /inventory takes.
const MaxItems = 50

// MaxQuantity is the largest quantity (int32).
const MaxQuantity = 1<<31 - 1

// maxText is the longest bin_location or description, in characters.
const maxText = 255

// QuantityMessage is the 422 message of a missing or invalid quantity.
const QuantityMessage = "Please provide a valid on hand quantity"

// Item is one validated item of a POST, PUT or PATCH /inventory body, and
// one item of a queued adjustment. Exactly one of OnHand, Available and
// OnHandDelta (PATCH only) is set; IfOnHand, if set, is the on_hand the
// record must have for the item to apply (compare-and-set, PUT and PATCH);
// Reason and Reference describe the change in its history. The optional
// fields are left as they are when nil, and Clear names those an explicit
// null removes.
type Item struct {
	SKU         string   `json:"sku"`
	Warehouse   string   `json:"warehouse_uuid"`
	OnHand      *int64   `json:"on_hand,omitempty"`
	Available   *int64   `json:"available,omitempty"`
	OnHandDelta *int64   `json:"on_hand_delta,omitempty"`
	IfOnHand    *int64   `json:"if_on_hand,omitempty"`
	Reason      *string  `json:"reason,omitempty"`
	Reference   *string  `json:"reference,omitempty"`
	Cost        *float64 `json:"cost,omitempty"`
	BinLocation *string  `json:"bin_location,omitempty"`
	Description *string  `json:"description,omitempty"`
	Clear       []string `json:"clear,omitempty"`
}

// Record names the record the item is about.
func (it Item) Record() SKUWarehouse { return SKUWarehouse{SKU: it.SKU, Warehouse: it.Warehouse} }

// ParseItems validates a body {"inventory": [item, ...]} or {"inventory":
// item} of method (POST, MethodPut or MethodPatch) in full: 1 to MaxItems
// items, each with a valid sku, a warehouse_uuid and exactly one of on_hand
// and available (or on_hand_delta, PATCH only), the change's fields (see
// parseChange), and no two items for the same record. Any problem is a 422
// naming the item and the field.
func ParseItems(body lenient.Object, method string) ([]Item, error) {
	f := body.Field("inventory")
	if !f.Set() {
		return nil, errs.Invalid("inventory is required")
	}
	elems, err := f.Array()
	if err != nil {
		return nil, err
	}
	if len(elems) < 1 || len(elems) > MaxItems {
		return nil, errs.Invalid("inventory must hold 1 to %d items", MaxItems)
	}
	items := make([]Item, len(elems))
	seen := make(map[SKUWarehouse]int, len(elems))
	for i, e := range elems {
		o, err := e.Object()
		if err != nil || o == nil {
			return nil, errs.Invalid("%s must be an object", e.Name)
		}
		if items[i], err = parseItem(e.Name, o, method); err != nil {
			return nil, err
		}
		if j, dup := seen[items[i].Record()]; dup {
			return nil, errs.Invalid("%s has the same sku and warehouse_uuid as inventory[%d]", e.Name, j)
		}
		seen[items[i].Record()] = i
	}
	return items, nil
}

// parseItem validates one item of method; name is how messages call it
// ("inventory[3]").
func parseItem(name string, o lenient.Object, method string) (Item, error) {
	var it Item
	var err error
	if it.SKU, err = requiredText(name, o.Field("sku")); err != nil {
		return it, err
	}
	if err := sku.Check(name+".sku", it.SKU); err != nil {
		return it, err
	}
	if it.Warehouse, err = requiredText(name, o.Field("warehouse_uuid")); err != nil {
		return it, err
	}
	if it.OnHand, err = quantity(o.Field("on_hand")); err != nil {
		return it, err
	}
	if it.Available, err = quantity(o.Field("available")); err != nil {
		return it, err
	}
	if err := it.parseChange(name, o, method); err != nil {
		return it, err
	}
	switch n := count(it.OnHand, it.Available, it.OnHandDelta); {
	case n == 0:
		return it, errs.Invalid(QuantityMessage)
	case n > 1 && it.OnHandDelta != nil:
		return it, errs.Invalid("%s.on_hand_delta must come alone, without on_hand or available", name)
	case n > 1:
		return it, errs.Invalid("%s must have exactly one of on_hand and available", name)
	}
	if err := it.optional(name, o); err != nil {
		return it, err
	}
	return it, nil
}

// requiredText returns the text of a required member of item name.
func requiredText(name string, f lenient.Field) (string, error) {
	f.Name = name + "." + f.Name
	s, err := f.String()
	if err != nil {
		return "", err
	}
	if s == nil || *s == "" {
		return "", errs.Invalid("%s is required", f.Name)
	}
	return *s, nil
}

// quantity reads an absolute quantity: an integer from 0 to MaxQuantity, as
// a number or a numeric string; nil when absent or null.
func quantity(f lenient.Field) (*int64, error) {
	v, err := f.Int()
	if err != nil || (v != nil && (*v < 0 || *v > MaxQuantity)) {
		return nil, errs.Invalid(QuantityMessage)
	}
	return v, nil
}

// optional reads cost, bin_location and description: absent leaves the
// stored value, null clears it.
func (it *Item) optional(name string, o lenient.Object) error {
	cost := o.Field(attrCost)
	c, err := cost.Float()
	if err != nil || (c != nil && *c < 0) {
		return errs.Invalid("%s.cost must be a number greater than or equal to 0", name)
	}
	it.Cost = c
	if cost.Null() {
		it.Clear = append(it.Clear, attrCost)
	}
	for _, tf := range []struct {
		attr string
		dst  **string
	}{{attrBinLocation, &it.BinLocation}, {attrDescription, &it.Description}} {
		f := o.Field(tf.attr)
		s, err := text(name, f, maxText)
		if err != nil {
			return err
		}
		*tf.dst = s
		if f.Null() {
			it.Clear = append(it.Clear, tf.attr)
		}
	}
	return nil
}

// String names the item in messages and logs.
func (r SKUWarehouse) String() string {
	return fmt.Sprintf("sku %q in warehouse %s", r.SKU, r.Warehouse)
}
