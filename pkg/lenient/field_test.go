package lenient

import (
	"encoding/json"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

func field(raw string) Field {
	if raw == "" {
		return Field{Name: "f"}
	}
	return Field{Name: "f", Raw: json.RawMessage(raw), Present: true}
}

func TestFieldInt(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw     string
		want    int64
		isNil   bool
		wantErr bool
	}{
		{raw: `5`, want: 5},
		{raw: `"5"`, want: 5},
		{raw: `" 7 "`, want: 7},
		{raw: `5.0`, want: 5},
		{raw: `-3`, want: -3},
		{raw: `5.5`, wantErr: true},
		{raw: `"abc"`, wantErr: true},
		{raw: `true`, wantErr: true},
		{raw: `[1]`, wantErr: true},
		{raw: `{}`, wantErr: true},
		{raw: `1e400`, wantErr: true},
		{raw: `null`, isNil: true},
		{raw: ``, isNil: true},
	}
	for _, c := range cases {
		got, err := field(c.raw).Int()
		switch {
		case c.wantErr:
			if err == nil || kind(err) != errs.KindInvalid {
				t.Errorf("Int(%s) err = %v, want invalid", c.raw, err)
			}
		case c.isNil:
			if err != nil || got != nil {
				t.Errorf("Int(%s) = %v, %v; want nil", c.raw, got, err)
			}
		default:
			if err != nil || got == nil || *got != c.want {
				t.Errorf("Int(%s) = %v, %v; want %d", c.raw, got, err, c.want)
			}
		}
	}
}

func TestFieldString(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{`"a b"`: "a b", `12345`: "12345", `"ü/#?"`: "ü/#?"} {
		got, err := field(raw).String()
		if err != nil || got == nil || *got != want {
			t.Errorf("String(%s) = %v, %v; want %q", raw, got, err, want)
		}
	}
	for _, raw := range []string{`true`, `[]`, `{}`} {
		if _, err := field(raw).String(); kind(err) != errs.KindInvalid {
			t.Errorf("String(%s) err = %v, want invalid", raw, err)
		}
	}
	if !field(`null`).Null() || field(`null`).Set() || field(``).Null() {
		t.Error("Null/Set disagree")
	}
}

func TestFieldBoolAndStrings(t *testing.T) {
	t.Parallel()
	if b, err := field(`"true"`).Bool(); err != nil || !*b {
		t.Errorf(`Bool("true") = %v, %v`, b, err)
	}
	if _, err := field(`3`).Bool(); kind(err) != errs.KindInvalid {
		t.Errorf("Bool(3) err = %v", err)
	}
	if s, err := field(`"one"`).Strings(); err != nil || len(s) != 1 || s[0] != "one" {
		t.Errorf("Strings(one) = %v, %v", s, err)
	}
	if s, err := field(`["a","b"]`).Strings(); err != nil || len(s) != 2 {
		t.Errorf("Strings([a b]) = %v, %v", s, err)
	}
	if _, err := field(`["a",{}]`).Strings(); kind(err) != errs.KindInvalid {
		t.Errorf("Strings with object err = %v", err)
	}
	if _, err := field(`[1]`).Object(); kind(err) != errs.KindInvalid {
		t.Errorf("Object([1]) err = %v", err)
	}
}
