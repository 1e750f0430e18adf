package catalog

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// Limits of custom attributes.
const (
	maxAttributes     = 100  // keys per product
	maxAttributeName  = 100  // characters of a key, after snake_case
	maxAttributeValue = 1000 // characters of a text value
	maxAttributeNum   = 1e15 // magnitude of a number value
)

// SnakeCase returns name in snake_case, the form custom attribute keys and
// variation attributes are stored in: words are split at spaces,
// punctuation and lower-to-upper case changes ("Shoe Size", "shoe-size" and
// "shoeSize" all become "shoe_size"; "HTMLColor" becomes "html_color"),
// lowercased and joined with "_". Letters of any script and digits are kept;
// a name with neither is "".
func SnakeCase(name string) string {
	rs := []rune(name)
	var b strings.Builder
	pendingSep := false
	for i, r := range rs {
		if !isWordRune(r) {
			pendingSep = b.Len() > 0
			continue
		}
		if isUpper(r) && i > 0 && lowerLike(rs[i-1]) {
			pendingSep = true
		}
		if isUpper(r) && i > 0 && isUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
			pendingSep = true
		}
		if pendingSep && b.Len() > 0 {
			b.WriteByte('_')
		}
		pendingSep = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// isWordRune reports whether r is part of a word: a letter, digit or mark.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// isUpper reports whether r is an upper-case letter that has a lower-case
// form (a letter without one is taken as caseless).
func isUpper(r rune) bool { return unicode.IsUpper(r) && unicode.ToLower(r) != r }

// lowerLike reports whether r ends a word before an upper-case letter.
func lowerLike(r rune) bool { return unicode.IsLower(r) || unicode.IsDigit(r) }

// parseCustomAttributes validates a custom_attributes object: keys become
// snake_case (two keys with the same snake_case form are a 422), values are
// strings, numbers or booleans, and a null value drops its key.
func parseCustomAttributes(f lenient.Field) (map[string]any, error) {
	obj, err := f.Object()
	if err != nil || obj == nil {
		return nil, err
	}
	out := make(map[string]any, len(obj))
	from := make(map[string]string, len(obj))
	for name := range obj {
		key := SnakeCase(name)
		switch {
		case key == "":
			return nil, errs.Invalid("custom_attributes key %q must contain a letter or digit", name)
		case utf8.RuneCountInString(key) > maxAttributeName:
			return nil, errs.Invalid("custom_attributes key %q is too long (maximum is %d characters)", name, maxAttributeName)
		case from[key] != "":
			return nil, errs.Invalid("custom_attributes keys %q and %q are both %q in snake_case", from[key], name, key)
		}
		from[key] = name
		v, err := attributeValue(obj.Field(name), key)
		if err != nil {
			return nil, err
		}
		if v != nil {
			out[key] = v
		}
	}
	if len(out) > maxAttributes {
		return nil, errs.Invalid("custom_attributes has %d keys (maximum is %d)", len(out), maxAttributes)
	}
	return out, nil
}

// attributeValue validates one custom attribute value: nil for null.
func attributeValue(f lenient.Field, key string) (any, error) {
	if f.Null() {
		return nil, nil
	}
	var v any
	if err := json.Unmarshal(f.Raw, &v); err != nil {
		return nil, errs.Invalid("custom_attributes.%s must be a string, number or boolean", key)
	}
	switch x := v.(type) {
	case string:
		if utf8.RuneCountInString(x) > maxAttributeValue {
			return nil, errs.Invalid("custom_attributes.%s is too long (maximum is %d characters)", key, maxAttributeValue)
		}
		if lenient.HasControl(x) {
			return nil, errs.Invalid("custom_attributes.%s %s", key, lenient.NoControl)
		}
		return x, nil
	case float64:
		if math.Abs(x) > maxAttributeNum {
			return nil, errs.Invalid("custom_attributes.%s must be between -%g and %g", key, maxAttributeNum, maxAttributeNum)
		}
		return roundNumber(x), nil
	case bool:
		return x, nil
	}
	return nil, errs.Invalid("custom_attributes.%s must be a string, number or boolean", key)
}

// attributeText is the text a variation value compares by: "10", 10 and
// 10.0 are the same value, "M" and "m" are not.
func attributeText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// combo identifies a child's values of the variation attributes keys (a
// hash, so a group item stays small whatever the values); missing names the
// first of keys the child lacks, and id is then "".
func combo(attrs map[string]any, keys []string) (id string, missing string) {
	vals := make([]string, len(keys))
	for i, k := range keys {
		v, ok := attrs[k]
		if !ok {
			return "", k
		}
		vals[i] = attributeText(v)
	}
	b, _ := json.Marshal(vals) // a []string always marshals
	sum := sha256.Sum256(b)
	return base64.RawStdEncoding.EncodeToString(sum[:18]), ""
}
