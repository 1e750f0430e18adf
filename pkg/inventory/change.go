package inventory

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// Reasons are the reasons an item of PUT or PATCH /inventory may give for
// its change; the history keeps it (docs/inventory.md).
var Reasons = []string{"received", "returned", "damaged", "counted", "transfer", "other"}

// methodPost names POST /inventory for ParseItems.
const methodPost = "POST"

// maxReference is the longest reference, in characters.
const maxReference = 255

// parseChange reads the fields of an item that describe the change rather
// than the record: on_hand_delta (PATCH only: a signed integer whose size is
// at most MaxQuantity), if_on_hand (PUT and PATCH: a quantity), reason (one
// of Reasons) and reference (text up to maxReference characters). POST takes
// none of them: it creates records, and keeps no history.
func (it *Item) parseChange(name string, o lenient.Object, method string) error {
	var err error
	for _, only := range []struct {
		field   string
		methods []string
	}{
		{"on_hand_delta", []string{MethodPatch}},
		{"if_on_hand", []string{MethodPut, MethodPatch}},
		{"reason", []string{MethodPut, MethodPatch}},
		{"reference", []string{MethodPut, MethodPatch}},
	} {
		if o.Field(only.field).Present && !slices.Contains(only.methods, method) {
			return errs.Invalid("%s.%s is taken only by %s", name, only.field, strings.Join(only.methods, " and "))
		}
	}
	d, err := o.Field("on_hand_delta").Int()
	if err != nil || (d != nil && (*d < -MaxQuantity || *d > MaxQuantity)) {
		return errs.Invalid("%s.on_hand_delta must be an integer from %d to %d", name, -MaxQuantity, MaxQuantity)
	}
	it.OnHandDelta = d
	if it.IfOnHand, err = quantity(o.Field("if_on_hand")); err != nil {
		return errs.Invalid("%s.if_on_hand must be an integer from 0 to %d", name, MaxQuantity)
	}
	if it.Reason, err = text(name, o.Field("reason"), maxReference); err != nil {
		return err
	}
	if it.Reason != nil && !slices.Contains(Reasons, *it.Reason) {
		return errs.Invalid("%s.reason must be one of %s", name, strings.Join(Reasons, ", "))
	}
	it.Reference, err = text(name, o.Field("reference"), maxReference)
	return err
}

// text reads an optional text member of item name, at most max characters.
func text(name string, f lenient.Field, max int) (*string, error) {
	f.Name = name + "." + f.Name
	s, err := f.String()
	if err != nil {
		return nil, err
	}
	if s != nil && utf8.RuneCountInString(*s) > max {
		return nil, errs.Invalid("%s must be at most %d characters", f.Name, max)
	}
	return s, nil
}

// count is how many of the quantities are set.
func count(qs ...*int64) int {
	n := 0
	for _, q := range qs {
		if q != nil {
			n++
		}
	}
	return n
}

// deltaLimit is the bound on_hand must respect for the delta d to apply:
// at least -d for a decrease (on_hand never goes below 0), at most
// MaxQuantity-d for an increase.
func deltaLimit(d int64) int64 {
	if d < 0 {
		return -d
	}
	return MaxQuantity - d
}

// deltaFits reports whether the delta d applies to on_hand: the result is
// from 0 to MaxQuantity.
func deltaFits(onHand, d int64) bool {
	return onHand+d >= 0 && onHand+d <= MaxQuantity
}

// DeltaRefusedReason is the reason of an item whose delta would take
// on_hand out of 0 to MaxQuantity when it is applied (result rejected).
const DeltaRefusedReason = "on_hand_delta would make on_hand negative or too large"

// ConflictReason is the reason of an item whose if_on_hand is not the
// record's on_hand when it is applied (result conflict).
const ConflictReason = "on_hand is not if_on_hand"

// checkDeltas is the 422 of an item of a PATCH whose delta would make its
// record's on_hand negative (or too large) now: onHand holds the on_hand of
// each existing record. The check is made again when the item is applied,
// so a change accepted meanwhile makes its result rejected.
func checkDeltas(items []Item, onHand map[SKUWarehouse]int64) error {
	for i, it := range items {
		cur, ok := onHand[it.Record()]
		if it.OnHandDelta == nil || !ok || deltaFits(cur, *it.OnHandDelta) {
			continue
		}
		return errs.Invalid("inventory[%d].on_hand_delta would make on_hand negative or too large (on_hand is %d)", i, cur)
	}
	return nil
}
