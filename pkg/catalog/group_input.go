package catalog

import (
	"fmt"
	"slices"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/sku"
)

// GroupInput is a validated PUT /variation_groups body (ParseGroup makes
// it).
type GroupInput struct {
	name        string
	description *string
	images      []string
	children    []string
	keys        []string
}

// ParseGroup validates a PUT /variation_groups/{sku} body: name, child_skus
// and variation_attributes are required, description and images optional
// (a PUT replaces them). Repeated child SKUs count once; variation
// attributes are taken in snake_case.
func ParseGroup(sku string, body lenient.Object) (GroupInput, error) {
	var in GroupInput
	for _, req := range []string{"name", "child_skus", "variation_attributes"} {
		if !body.Field(req).Set() {
			return in, errs.Invalid("%s is required", req)
		}
	}
	name, err := text(body.Field("name"), maxName)
	if err != nil {
		return in, err
	}
	if name == nil {
		return in, errs.Invalid("name can't be blank")
	}
	in.name = *name
	if in.description, err = text(body.Field("description"), maxDescription); err != nil {
		return in, err
	}
	if in.images, err = textList(body.Field("images")); err != nil {
		return in, err
	}
	if in.children, err = parseChildren(sku, body.Field("child_skus")); err != nil {
		return in, err
	}
	in.keys, err = parseKeys(body.Field("variation_attributes"))
	return in, err
}

// parseChildren validates child_skus: 1 to MaxChildren valid SKUs other
// than the group's own, in order, each once.
func parseChildren(group string, f lenient.Field) ([]string, error) {
	skus, err := f.Strings()
	if err != nil {
		return nil, err
	}
	var out []string
	for i, s := range skus {
		if err := sku.Check(fmt.Sprintf("child_skus[%d]", i), s); err != nil {
			return nil, err
		}
		if s == group {
			return nil, errs.Invalid("child_skus: a variation group can't be its own child (%s)", s)
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 || len(out) > MaxChildren {
		return nil, errs.Invalid("child_skus must list 1 to %d products", MaxChildren)
	}
	return out, nil
}

// parseKeys validates variation_attributes: at least one custom attribute
// name, each taken in snake_case, each once.
func parseKeys(f lenient.Field) ([]string, error) {
	names, err := f.Strings()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		k := SnakeCase(n)
		if k == "" {
			return nil, errs.Invalid("variation_attributes: %q must contain a letter or digit", n)
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if len(out) == 0 || len(out) > maxAttributes {
		return nil, errs.Invalid("variation_attributes must list 1 to %d custom attribute names", maxAttributes)
	}
	return out, nil
}
