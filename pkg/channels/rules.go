package channels

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// maxRuleValue is the largest max, min or safety (int32, like quantities).
const maxRuleValue = 1<<31 - 1

// Rule field names, as the API spells them.
const (
	RulePercent    = "percent"
	RuleMax        = "max"
	RuleMin        = "min"
	RuleSafety     = "safety"
	RuleWarehouses = "warehouses"
	RuleSync       = "sync"
)

// ruleFields lists every rule field, in the API's order.
var ruleFields = []string{RulePercent, RuleMax, RuleMin, RuleSafety, RuleWarehouses, RuleSync}

// Rules are the inventory rules that turn stock into the quantity a channel
// listing shows (docs/channel-sync.md): a channel's, or a channel's merged
// with a listing's overrides.
type Rules struct {
	Percent int    `json:"percent" dynamodbav:"percent"`
	Max     *int64 `json:"max" dynamodbav:"max"`
	Min     *int64 `json:"min" dynamodbav:"min"`
	Safety  *int64 `json:"safety" dynamodbav:"safety"`
	// Warehouses limits the stock counted to these warehouses; nil counts
	// every warehouse that is not archived.
	Warehouses []string `json:"warehouses" dynamodbav:"warehouses"`
	Sync       bool     `json:"sync" dynamodbav:"sync"`
}

// DefaultRules are the rules of a channel that has none: all of the stock,
// synced.
func DefaultRules() Rules { return Rules{Percent: 100, Sync: true} }

// Quantity applies the rules to stock: available per warehouse, archived
// warehouses left out by the caller. A is the sum over Warehouses (every
// warehouse of stock when nil); the quantity is 0 when Safety is set and A
// <= Safety, else floor(A * Percent / 100), then at most Max, then at least
// Min.
func (r Rules) Quantity(stock map[string]int64) int64 {
	var a int64
	for wh, n := range stock {
		if n > 0 && (r.Warehouses == nil || slices.Contains(r.Warehouses, wh)) {
			a += n
		}
	}
	if r.Safety != nil && a <= *r.Safety {
		return 0
	}
	q := a * int64(r.Percent) / 100
	if r.Max != nil && q > *r.Max {
		q = *r.Max
	}
	if r.Min != nil && q < *r.Min {
		q = *r.Min
	}
	return q
}

// Override is a listing's inventory rules: only the fields it overrides,
// each replacing the channel's. Its JSON is an object with just those
// fields.
type Override struct {
	values Rules
	set    map[string]bool
}

// Fields returns the overridden field names, in the API's order.
func (o Override) Fields() []string {
	var out []string
	for _, f := range ruleFields {
		if o.set[f] {
			out = append(out, f)
		}
	}
	return out
}

// Empty reports whether o overrides nothing.
func (o Override) Empty() bool { return len(o.set) == 0 }

// Apply returns the channel's rules r with o's fields in place of r's.
func (o Override) Apply(r Rules) Rules {
	v := o.values
	for f := range o.set {
		switch f {
		case RulePercent:
			r.Percent = v.Percent
		case RuleMax:
			r.Max = v.Max
		case RuleMin:
			r.Min = v.Min
		case RuleSafety:
			r.Safety = v.Safety
		case RuleWarehouses:
			r.Warehouses = v.Warehouses
		case RuleSync:
			r.Sync = v.Sync
		}
	}
	return r
}

// MarshalJSON writes the overridden fields only ({} for none).
func (o Override) MarshalJSON() ([]byte, error) {
	all, err := json.Marshal(o.values)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(all, &m); err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(o.set))
	for f := range o.set {
		out[f] = m[f]
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads an override as MarshalJSON writes it (stored
// overrides, already validated).
func (o *Override) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*o = Override{set: map[string]bool{}}
	if err := json.Unmarshal(b, &o.values); err != nil {
		return err
	}
	for f := range m {
		if slices.Contains(ruleFields, f) {
			o.set[f] = true
		}
	}
	return nil
}

// ParseRules reads a channel's inventory_rules: the whole rule set, absent
// (or null) fields taking their defaults. field is the member's name for
// the errors ("inventory_rules").
func ParseRules(field lenient.Field) (Rules, error) {
	o, err := parseOverride(field)
	if err != nil {
		return Rules{}, err
	}
	return o.Apply(DefaultRules()), nil
}

// ParseOverride reads a listing's inventory_rules: only the fields present
// override the channel's; null or {} overrides nothing. A null percent or
// sync is not an override (they have no "none").
func ParseOverride(field lenient.Field) (Override, error) { return parseOverride(field) }

func parseOverride(field lenient.Field) (Override, error) {
	o := Override{set: map[string]bool{}}
	if !field.Set() {
		return o, nil
	}
	var obj lenient.Object
	if err := json.Unmarshal(field.Raw, &obj); err != nil || obj == nil {
		return Override{}, errs.Invalid("%s must be an object", field.Name)
	}
	name := func(f string) string { return field.Name + "." + f }
	if f := obj.Field(RulePercent); f.Set() {
		v, err := obj.Field(RulePercent).Int()
		if err != nil || *v < 0 || *v > 100 {
			return Override{}, errs.Invalid("%s must be an integer from 0 to 100", name(RulePercent))
		}
		o.values.Percent, o.set[RulePercent] = int(*v), true
	}
	for _, f := range []string{RuleMax, RuleMin, RuleSafety} {
		fl := obj.Field(f)
		if !fl.Present {
			continue
		}
		v, err := fl.Int()
		if err != nil || (v != nil && (*v < 0 || *v > maxRuleValue)) {
			return Override{}, errs.Invalid("%s must be null or an integer from 0 to %d", name(f), maxRuleValue)
		}
		switch f {
		case RuleMax:
			o.values.Max = v
		case RuleMin:
			o.values.Min = v
		case RuleSafety:
			o.values.Safety = v
		}
		o.set[f] = true
	}
	if o.values.Min != nil && o.values.Max != nil && *o.values.Min > *o.values.Max {
		return Override{}, errs.Invalid("%s must not be greater than %s", name(RuleMin), name(RuleMax))
	}
	if fl := obj.Field(RuleWarehouses); fl.Present {
		whs, err := parseWarehouses(fl, name(RuleWarehouses))
		if err != nil {
			return Override{}, err
		}
		o.values.Warehouses, o.set[RuleWarehouses] = whs, true
	}
	if fl := obj.Field(RuleSync); fl.Set() {
		v, err := fl.Bool()
		if err != nil {
			return Override{}, errs.Invalid("%s must be true or false", name(RuleSync))
		}
		o.values.Sync, o.set[RuleSync] = *v, true
	}
	return o, nil
}

// parseWarehouses reads a warehouses rule: null, or an array of uuids
// (sorted, without repeats; an empty array counts no warehouse).
func parseWarehouses(f lenient.Field, name string) ([]string, error) {
	if f.Null() {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(f.Raw, &list); err != nil {
		return nil, errs.Invalid("%s must be null or an array of warehouse uuids", name)
	}
	sort.Strings(list)
	return slices.Compact(list), nil
}

// Warehouses returns the warehouses an override names, nil when it does
// not override them.
func (o Override) Warehouses() []string { return o.values.Warehouses }
