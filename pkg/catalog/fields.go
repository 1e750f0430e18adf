package catalog

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// Limits of product fields, in characters (text) or elements (lists).
const (
	maxName        = 500
	maxShortText   = 255
	maxLongText    = 2000
	maxDescription = 20000
	maxListItems   = 100
	maxListItem    = 2000
	// maxNumber bounds prices, costs and package measures.
	maxNumber = 1e12
)

// Conditions are the allowed values of condition.
var Conditions = []string{"new", "used", "reconditioned"}

// fieldSpec is one writable product field: how its request member is
// validated into a change of the Product, and, for the fields a variation
// group inherits from its children, how a group takes a child's value.
type fieldSpec struct {
	name  string
	parse func(f lenient.Field) (func(*Product), error)
	// inherit, if set, copies the child's value into the group when the
	// group has none of its own.
	inherit func(group, child *Product)
}

// productFields are the writable fields, in the order their errors are
// reported. name, description and image_list double as a variation group's
// name, description and images.
var productFields = []fieldSpec{
	textField("name", maxName, func(p *Product) **string { return &p.Name }, false),
	textField("description", maxDescription, func(p *Product) **string { return &p.Description }, false),
	conditionField(),
	textField("condition_note", maxLongText, func(p *Product) **string { return &p.ConditionNote }, true),
	textField("brand", maxShortText, func(p *Product) **string { return &p.Brand }, true),
	textField("manufacturer", maxShortText, func(p *Product) **string { return &p.Manufacturer }, true),
	textField("manufacturer_model_number", maxShortText, func(p *Product) **string { return &p.ManufacturerModelNumber }, true),
	textField("category_name", maxShortText, func(p *Product) **string { return &p.CategoryName }, true),
	numberField("price", func(p *Product) **float64 { return &p.Price }, false),
	numberField("cost", func(p *Product) **float64 { return &p.Cost }, false),
	numberField("msrp", func(p *Product) **float64 { return &p.MSRP }, false),
	numberField("package_length", func(p *Product) **float64 { return &p.PackageLength }, true),
	numberField("package_width", func(p *Product) **float64 { return &p.PackageWidth }, true),
	numberField("package_height", func(p *Product) **float64 { return &p.PackageHeight }, true),
	textField("package_unit_of_length", maxShortText, func(p *Product) **string { return &p.PackageUnitOfLength }, true),
	numberField("package_weight", func(p *Product) **float64 { return &p.PackageWeight }, true),
	textField("package_unit_of_weight", maxShortText, func(p *Product) **string { return &p.PackageUnitOfWeight }, true),
	textField("warranty", maxLongText, func(p *Product) **string { return &p.Warranty }, true),
	textField("provider", maxShortText, func(p *Product) **string { return &p.Provider }, true),
	textField("asin", maxShortText, func(p *Product) **string { return &p.ASIN }, false),
	textField("upc", maxShortText, func(p *Product) **string { return &p.UPC }, false),
	textField("ean", maxShortText, func(p *Product) **string { return &p.EAN }, false),
	textField("isbn", maxShortText, func(p *Product) **string { return &p.ISBN }, false),
	textField("gtin", maxShortText, func(p *Product) **string { return &p.GTIN }, false),
	textField("gcid", maxShortText, func(p *Product) **string { return &p.GCID }, false),
	textField("epid", maxShortText, func(p *Product) **string { return &p.EPID }, false),
	listField("features", func(p *Product) *[]string { return &p.Features }, true),
	listField("image_list", func(p *Product) *[]string { return &p.ImageList }, false),
	{name: "custom_attributes", parse: func(f lenient.Field) (func(*Product), error) {
		attrs, err := parseCustomAttributes(f)
		if err != nil {
			return nil, err
		}
		return func(p *Product) { p.CustomAttributes = attrs }, nil
	}},
}

// inheritPointer is the inherit function of a pointer field.
func inheritPointer[T any](at func(*Product) **T) func(group, child *Product) {
	return func(group, child *Product) {
		if *at(group) == nil {
			*at(group) = *at(child)
		}
	}
}

// textField is a text field of at most max characters: surrounding spaces
// are trimmed and a blank value clears it like null.
func textField(name string, max int, at func(*Product) **string, inherited bool) fieldSpec {
	s := fieldSpec{name: name, parse: func(f lenient.Field) (func(*Product), error) {
		v, err := text(f, max)
		if err != nil {
			return nil, err
		}
		return func(p *Product) { *at(p) = v }, nil
	}}
	if inherited {
		s.inherit = inheritPointer(at)
	}
	return s
}

// text validates a text member: nil for null or blank.
func text(f lenient.Field, max int) (*string, error) {
	s, err := f.String()
	if err != nil || s == nil {
		return nil, err
	}
	v := strings.TrimSpace(*s)
	if v == "" {
		return nil, nil
	}
	if utf8.RuneCountInString(v) > max {
		return nil, errs.Invalid("%s is too long (maximum is %d characters)", f.Name, max)
	}
	return &v, nil
}

// conditionField is condition: one of Conditions, case-insensitively.
func conditionField() fieldSpec {
	at := func(p *Product) **string { return &p.Condition }
	return fieldSpec{name: "condition", inherit: inheritPointer(at), parse: func(f lenient.Field) (func(*Product), error) {
		v, err := text(f, maxShortText)
		if err != nil {
			return nil, err
		}
		if v != nil {
			lower := strings.ToLower(*v)
			if !isCondition(lower) {
				return nil, errs.Invalid("condition must be one of %s", strings.Join(Conditions, ", "))
			}
			v = &lower
		}
		return func(p *Product) { p.Condition = v }, nil
	}}
}

func isCondition(s string) bool {
	for _, c := range Conditions {
		if s == c {
			return true
		}
	}
	return false
}

// numberField is a number from 0 to maxNumber, rounded to 6 decimals.
func numberField(name string, at func(*Product) **float64, inherited bool) fieldSpec {
	s := fieldSpec{name: name, parse: func(f lenient.Field) (func(*Product), error) {
		v, err := f.Float()
		if err != nil {
			return nil, err
		}
		if v != nil {
			if *v < 0 || *v > maxNumber {
				return nil, errs.Invalid("%s must be between 0 and %.0f", name, maxNumber)
			}
			r := roundNumber(*v)
			v = &r
		}
		return func(p *Product) { *at(p) = v }, nil
	}}
	if inherited {
		s.inherit = inheritPointer(at)
	}
	return s
}

// roundNumber rounds v to 6 decimals, which DynamoDB stores exactly.
func roundNumber(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// listField is a list of texts (a single string is a list of one); blank
// elements are dropped and null clears the list.
func listField(name string, at func(*Product) *[]string, inherited bool) fieldSpec {
	s := fieldSpec{name: name, parse: func(f lenient.Field) (func(*Product), error) {
		v, err := textList(f)
		if err != nil {
			return nil, err
		}
		return func(p *Product) { *at(p) = v }, nil
	}}
	if inherited {
		s.inherit = func(group, child *Product) {
			if len(*at(group)) == 0 {
				*at(group) = *at(child)
			}
		}
	}
	return s
}

// textList validates a list of texts: nil for null or an empty list.
func textList(f lenient.Field) ([]string, error) {
	elems, err := f.Array()
	if err != nil || elems == nil {
		return nil, err
	}
	if len(elems) > maxListItems {
		return nil, errs.Invalid("%s has %d elements (maximum is %d)", f.Name, len(elems), maxListItems)
	}
	var out []string
	for _, e := range elems {
		if e.Null() {
			return nil, errs.Invalid("%s must be a string", e.Name)
		}
		v, err := text(e, maxListItem)
		if err != nil {
			return nil, err
		}
		if v != nil {
			out = append(out, *v)
		}
	}
	return out, nil
}
