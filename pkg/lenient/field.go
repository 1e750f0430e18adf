package lenient

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/multisell/multisell/pkg/errs"
)

// NoControl is the problem of a text member that holds a control character
// other than tab, newline and carriage return.
const NoControl = "must not contain control characters"

// notString is the problem of a text member of another JSON type.
const notString = "must be a string"

// HasControl reports whether s holds a control character (Unicode Cc: C0,
// DEL and C1) other than tab, newline and carriage return: what no text a
// client sends may hold.
func HasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
	})
}

// FieldError is the 422 of a member, of a text member (String) or of a
// repeated key (DecodeObject): its name and what is wrong with it. It unwraps to the errs.Invalid "<Field> <Problem>", the message the API
// answers; a caller that reports fields in a shape of its own (the
// warehouse validation's {"field": ["problem"]}) reads Problem.
type FieldError struct {
	Field, Problem string
}

// Error implements the error interface.
func (e *FieldError) Error() string { return e.Unwrap().Error() }

// Unwrap returns the errs.Invalid the error is.
func (e *FieldError) Unwrap() error { return errs.Invalid("%s %s", e.Field, e.Problem) }

// Field is one member of a request object. The accessors are lenient as
// docs/api-conventions.md promises: numbers may come as JSON numbers or
// numeric strings, text fields accept numbers, and a wrong type is a 422
// naming the field. Each accessor returns nil for an absent or null member.
// Name is how errors call the member; a caller that names members by a path
// ("inventory[0].bin_location") sets it before reading.
type Field struct {
	Name    string
	Raw     json.RawMessage
	Present bool
}

// Null reports whether the member is present and JSON null.
func (f Field) Null() bool { return f.Present && bytes.Equal(bytes.TrimSpace(f.Raw), []byte("null")) }

// Set reports whether the member is present and not null.
func (f Field) Set() bool { return f.Present && !f.Null() }

// kind returns the first byte of the trimmed raw value.
func (f Field) kind() byte {
	t := bytes.TrimSpace(f.Raw)
	if len(t) == 0 {
		return 0
	}
	return t[0]
}

// String returns the member as text: a JSON string, or a number's literal.
// Text holds no control character other than tab, newline and carriage
// return. Its errors are *FieldErrors: NoControl, or "must be a string" for
// another JSON type.
func (f Field) String() (*string, error) {
	if !f.Set() {
		return nil, nil
	}
	s, ok := f.text()
	switch {
	case !ok:
		return nil, &FieldError{Field: f.Name, Problem: notString}
	case HasControl(s):
		return nil, &FieldError{Field: f.Name, Problem: NoControl}
	}
	return &s, nil
}

// text returns a set member's string, or a number's literal; ok is false
// for another JSON type.
func (f Field) text() (s string, ok bool) {
	switch k := f.kind(); {
	case k == '"':
		return s, json.Unmarshal(f.Raw, &s) == nil
	case k == '-' || (k >= '0' && k <= '9'):
		return string(bytes.TrimSpace(f.Raw)), true
	}
	return "", false
}

// numberText returns the literal of a JSON number or numeric string.
func (f Field) numberText() (string, bool) {
	switch k := f.kind(); {
	case k == '"':
		var s string
		if json.Unmarshal(f.Raw, &s) != nil {
			return "", false
		}
		return strings.TrimSpace(s), true
	case k == '-' || (k >= '0' && k <= '9'):
		return string(bytes.TrimSpace(f.Raw)), true
	}
	return "", false
}

// Float returns the member as a finite number.
func (f Field) Float() (*float64, error) {
	if !f.Set() {
		return nil, nil
	}
	s, ok := f.numberText()
	if !ok {
		return nil, errs.Invalid("%s must be a number", f.Name)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, errs.Invalid("%s must be a number", f.Name)
	}
	return &v, nil
}

// Int returns the member as an integer; "5", 5 and 5.0 are all 5.
func (f Field) Int() (*int64, error) {
	v, err := f.Float()
	if err != nil || v == nil {
		if err != nil {
			err = errs.Invalid("%s must be an integer", f.Name)
		}
		return nil, err
	}
	if *v != math.Trunc(*v) || math.Abs(*v) > 1<<53 {
		return nil, errs.Invalid("%s must be an integer", f.Name)
	}
	i := int64(*v)
	return &i, nil
}

// Bool returns the member as a boolean; "true" and "false" are accepted.
func (f Field) Bool() (*bool, error) {
	if !f.Set() {
		return nil, nil
	}
	var b bool
	if err := json.Unmarshal(f.Raw, &b); err == nil {
		return &b, nil
	}
	if s, ok := f.text(); ok {
		if v, err := strconv.ParseBool(s); err == nil {
			return &v, nil
		}
	}
	return nil, errs.Invalid("%s must be a boolean", f.Name)
}

// Object returns the member as a JSON object.
func (f Field) Object() (Object, error) {
	if !f.Set() {
		return nil, nil
	}
	if f.kind() != '{' {
		return nil, errs.Invalid("%s must be an object", f.Name)
	}
	var o Object
	if err := json.Unmarshal(f.Raw, &o); err != nil {
		return nil, errs.Invalid("%s must be an object", f.Name)
	}
	return o, nil
}

// Array returns the member's elements when it is a JSON array; a single
// non-array value is taken as a one-element array.
func (f Field) Array() ([]Field, error) {
	if !f.Set() {
		return nil, nil
	}
	if f.kind() != '[' {
		return []Field{{Name: f.Name, Raw: f.Raw, Present: true}}, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(f.Raw, &raws); err != nil {
		return nil, errs.Invalid("%s must be an array", f.Name)
	}
	out := make([]Field, len(raws))
	for i, r := range raws {
		out[i] = Field{Name: f.Name + "[" + strconv.Itoa(i) + "]", Raw: r, Present: true}
	}
	return out, nil
}

// Strings returns the member as a list of strings; a single string is a
// list of one. An element that holds a control character is a *FieldError
// naming it ("features[2]").
func (f Field) Strings() ([]string, error) {
	elems, err := f.Array()
	if err != nil || elems == nil {
		return nil, err
	}
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		s, ok := e.text()
		if !e.Set() || !ok {
			return nil, errs.Invalid("%s must be an array of strings", f.Name)
		}
		if HasControl(s) {
			return nil, &FieldError{Field: e.Name, Problem: NoControl}
		}
		out = append(out, s)
	}
	return out, nil
}
