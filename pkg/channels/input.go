package channels

import (
	"encoding/json"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// ParseUpdate reads the body of PUT /channels/{uuid},
// {"channel":{"inventory_rules":{...}}}, into the channel's new rules
// (absent rule fields take their defaults). Other channel fields are
// ignored: a channel's name, type and state come from its connector.
func ParseUpdate(body lenient.Object) (Rules, error) {
	ch := body.Field("channel")
	var obj lenient.Object
	if !ch.Set() || json.Unmarshal(ch.Raw, &obj) != nil || obj == nil {
		return Rules{}, errs.Invalid("channel must be an object")
	}
	rules := obj.Field("inventory_rules")
	if !rules.Present {
		return Rules{}, errs.Invalid("channel.inventory_rules is required")
	}
	rules.Name = "inventory_rules"
	return ParseRules(rules)
}
