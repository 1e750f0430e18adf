package lenient

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
)

// MaxBodyBytes is the largest request body an endpoint accepts (1 MiB);
// larger bodies are refused with 413.
const MaxBodyBytes = 1 << 20

// Object is a JSON object whose members are decoded on demand, so handlers
// can tell an absent member from an explicit null and report the member's
// name in every validation error.
type Object map[string]json.RawMessage

// Duplicate is the problem of a key repeated in an object of a body.
const Duplicate = "is a duplicate key"

// DecodeObject parses a request body that must be one JSON object: a body
// over MaxBodyBytes is 413, anything that is not a JSON object is 400, and
// an object at any depth that repeats a key is a 422 naming the key by its
// path (a *FieldError: "warehouse.name is a duplicate key").
func DecodeObject(body string) (Object, error) {
	if len(body) > MaxBodyBytes {
		return nil, errs.TooLarge("Request body is too large (limit 1 MiB)")
	}
	return parseObject([]byte(body))
}

func parseObject(b []byte) (Object, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errs.Malformed("Request body must be a JSON object")
	}
	// JSON text is UTF-8 (RFC 8259); encoding/json would silently turn other
	// bytes into U+FFFD, changing a SKU or a name into another one.
	if !json.Valid(b) || !utf8.Valid(b) {
		return nil, errs.Malformed("Request body is not valid JSON")
	}
	if b[0] != '{' {
		return nil, errs.Malformed("Request body must be a JSON object")
	}
	if path, ok := duplicateKey(b); ok {
		return nil, &FieldError{Field: path, Problem: Duplicate}
	}
	var o Object
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, errs.Malformed("Request body must be a JSON object")
	}
	return o, nil
}

// Field returns the member name of o; its Present is false when o lacks it.
func (o Object) Field(name string) Field {
	raw, ok := o[name]
	return Field{Name: name, Raw: raw, Present: ok}
}

// Has reports whether o has the member name, null or not.
func (o Object) Has(name string) bool {
	_, ok := o[name]
	return ok
}

// duplicateKey returns the path of the first member of b (valid JSON) whose
// key its object already has, and whether there is one: "name", or
// "inventory[0].sku" in a nested object. Keys are compared as decoded, so
// "a" and "\u0061" are the same key, as they are to encoding/json, which
// would silently keep the last.
func duplicateKey(b []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // a number token is never converted, so never fails
	return walk(dec, "")
}

// walk reads one value from dec, at path, and returns the path of the first
// duplicate key in it, if any.
func walk(dec *json.Decoder, path string) (string, bool) {
	tok, err := dec.Token()
	if err != nil {
		return "", false // not reached: the body is valid JSON
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return "", false
			}
			key, _ := t.(string)
			at := cmp.Or(key, `""`) // an empty key is named so
			if path != "" {
				at = path + "." + at
			}
			if seen[key] {
				return at, true
			}
			seen[key] = true
			if dup, ok := walk(dec, at); ok {
				return dup, true
			}
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if dup, ok := walk(dec, path+"["+strconv.Itoa(i)+"]"); ok {
				return dup, true
			}
		}
	default:
		return "", false // a scalar
	}
	_, _ = dec.Token() // the closing delimiter
	return "", false
}
