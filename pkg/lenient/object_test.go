package lenient

import (
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

func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,"2",null]}`, `[]`, `{`, `"\u0000"`, `{"a":1e999}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		o, err := DecodeObject(body)
		if err != nil {
			if k := kind(err); k != errs.KindMalformed && k != errs.KindTooLarge {
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
