package lenient

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

// none is the "kind" of no error at all.
const none errs.Kind = -1

// kind is the kind of err, or none.
func kind(err error) errs.Kind {
	if err == nil {
		return none
	}
	return errs.KindOf(err)
}

func TestDecodeObject(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		body string
		want errs.Kind
	}{
		{"object", `{"a":1}`, none},
		{"object with spaces", " \n{\"a\":1} ", none},
		{"empty", "", errs.KindMalformed},
		{"not json", "{a:1}", errs.KindMalformed},
		{"truncated", `{"a":`, errs.KindMalformed},
		{"array", `[1,2]`, errs.KindMalformed},
		{"string", `"x"`, errs.KindMalformed},
		{"null", `null`, errs.KindMalformed},
		{"two values", `{} {}`, errs.KindMalformed},
		{"not UTF-8", "{\"sku\":\"Caf\xe9\"}", errs.KindMalformed},
		{"oversize", `{"a":"` + strings.Repeat("x", MaxBodyBytes) + `"}`, errs.KindTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := DecodeObject(c.body)
			if got := kind(err); got != c.want {
				t.Fatalf("DecodeObject(%.40q) kind = %v, want %v (err %v)", c.body, got, c.want, err)
			}
		})
	}
}

func TestDecodeObjectDuplicateKeys(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		want       string // the 422's message, "" when accepted
	}{
		{"distinct keys", `{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}`, ""},
		{"same key in sibling objects", `{"x":{"k":1},"y":{"k":1}}`, ""},
		{"key differing in case", `{"name":"a","Name":"b"}`, ""},
		{"top level", `{"name":"a","name":"a"}`, `name is a duplicate key`},
		{"top level, null and value", `{"name":null,"sku":"s","name":"b"}`, `name is a duplicate key`},
		{"escaped spelling", `{"a":1,"\u0061":2}`, `a is a duplicate key`},
		{"nested object", `{"warehouse":{"name":"a","city":"c","name":"b"}}`, `warehouse.name is a duplicate key`},
		{"in an array", `{"inventory":[{"sku":"a"},{"sku":"a","on_hand":1,"sku":"b"}]}`, `inventory[1].sku is a duplicate key`},
		{"deep", `{"a":[[{"b":{"c":1,"c":2}}]]}`, `a[0][0].b.c is a duplicate key`},
		{"empty key", `{"":1,"":2}`, `"" is a duplicate key`},
		{"empty key, nested", `{"a":{"":1,"":2}}`, `a."" is a duplicate key`},
		{"after a huge number", `{"n":1e999,"n":1}`, `n is a duplicate key`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := DecodeObject(c.body)
			got := ""
			if err != nil {
				e, ok := errs.As(err)
				if !ok || e.Kind != errs.KindInvalid {
					t.Fatalf("DecodeObject(%s) = %v, want invalid", c.body, err)
				}
				got = e.Message
			}
			if got != c.want {
				t.Errorf("DecodeObject(%s) error %q, want %q", c.body, got, c.want)
			}
		})
	}
}

// members counts the object members of a valid JSON text, token by token
// (every key, repeated ones included).
func members(t *testing.T, b []byte) int {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n := 0
	var inObject []bool // per open container: is it an object
	expectKey := false
	for {
		tok, err := dec.Token()
		if err != nil {
			return n
		}
		if expectKey {
			if _, ok := tok.(string); ok {
				n++
				expectKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			inObject = append(inObject, tok == json.Delim('{'))
		case json.Delim('}'), json.Delim(']'):
			inObject = inObject[:len(inObject)-1]
		}
		// After an object's opening or one of its values, a key (or its end) comes next.
		expectKey = len(inObject) > 0 && inObject[len(inObject)-1]
	}
}

// distinct counts the members of a decoded JSON value (repeated keys kept once).
func distinct(v any) int {
	n := 0
	switch x := v.(type) {
	case map[string]any:
		n = len(x)
		for _, e := range x {
			n += distinct(e)
		}
	case []any:
		for _, e := range x {
			n += distinct(e)
		}
	}
	return n
}

func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,"2",null]}`, `[]`, `{`, `"\u0000"`, `{"a":1e999}`,
		`{"a":1,"a":2}`, `{"a":{"b":[{"c":1,"\u0063":2}]}}`, `{"t":"x\u0000y"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		o, err := DecodeObject(body)
		// A body is refused as a duplicate exactly when decoding it would lose a member.
		var v any
		if k := kind(err); (k == none || k == errs.KindInvalid) && json.Unmarshal([]byte(body), &v) == nil {
			if lost := members(t, []byte(body)) != distinct(v); lost != (k == errs.KindInvalid) {
				t.Fatalf("kind %v for %q, which loses a member: %v", k, body, lost)
			}
		}
		if err != nil {
			if k := kind(err); k != errs.KindMalformed && k != errs.KindTooLarge && k != errs.KindInvalid {
				t.Fatalf("kind %v for %q", k, body)
			}
			return
		}
		for name := range o {
			f := o.Field(name)
			// No accessor may panic, whatever the member holds.
			_, _ = f.String()
			_, _ = f.Int()
			_, _ = f.Float()
			_, _ = f.Bool()
			_, _ = f.Object()
			_, _ = f.Strings()
		}
	})
}
