package lenient

import (
	"encoding/json"
	"errors"
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

func TestHasControl(t *testing.T) {
	t.Parallel()
	cases := []struct {
		s    string
		want bool
	}{
		{"plain text", false},
		{"tab\tnewline\ncarriage return\r", false},
		{"ü € 😀 ≠ ←", false},
		{"\u00a0no-break space, zero-width\u200bspace", false}, // spaces and format characters are not controls
		{"", false},
		{"NUL\x00", true},
		{"bell\a", true},
		{"escape\x1b[31m", true},
		{"unit separator\x1f", true},
		{"DEL\x7f", true},
		{"C1 \u0080", true},
		{"C1 NEL\u0085", true},
		{"C1 \u009f", true},
	}
	for _, c := range cases {
		if got := HasControl(c.s); got != c.want {
			t.Errorf("HasControl(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestFieldTextControl(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw     string
		want    string // the text, when accepted
		problem string // the FieldError's problem, when refused
	}{
		{raw: `"a\tb\nc\r"`, want: "a\tb\nc\r"},
		{raw: `"line one\r\nline two"`, want: "line one\r\nline two"},
		{raw: `"\u00e9\u200b"`, want: "é\u200b"},
		{raw: `"a\u0000b"`, problem: NoControl},
		{raw: `"\u0007"`, problem: NoControl},
		{raw: `"a\u001bb"`, problem: NoControl},
		{raw: `"\u007f"`, problem: NoControl},
		{raw: "\"a\u0085\"", problem: NoControl}, // NEL as raw UTF-8
		{raw: `"\u009b"`, problem: NoControl},
		{raw: `true`, problem: "must be a string"},
		{raw: `{}`, problem: "must be a string"},
	}
	for _, c := range cases {
		got, err := field(c.raw).String()
		if c.problem == "" {
			if err != nil || got == nil || *got != c.want {
				t.Errorf("String(%s) = %v, %v; want %q", c.raw, got, err, c.want)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "f" || fe.Problem != c.problem || got != nil {
			t.Errorf("String(%s) = %v, %v; want a FieldError %q", c.raw, got, err, c.problem)
			continue
		}
		// The API answers the errs.Invalid it unwraps to.
		if e, ok := errs.As(err); !ok || e.Kind != errs.KindInvalid || e.Message != "f "+c.problem {
			t.Errorf("String(%s) error unwraps to %v, want invalid %q", c.raw, e, "f "+c.problem)
		}
	}
}

func TestFieldStringsControl(t *testing.T) {
	t.Parallel()
	cases := []struct {
		raw  string
		want string // the error message, "" when accepted
	}{
		{`["a","b\tc"]`, ""},
		{`"a\u0001"`, "f must not contain control characters"}, // a single string is the member itself
		{`["ok","a\u0000"]`, "f[1] must not contain control characters"},
		{`["ok",null]`, "f must be an array of strings"},
		{`["ok",[]]`, "f must be an array of strings"},
	}
	for _, c := range cases {
		_, err := field(c.raw).Strings()
		got := ""
		if e, ok := errs.As(err); ok {
			got = e.Message
		} else if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("Strings(%s) error %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestFieldBoolIgnoresTextRule(t *testing.T) {
	t.Parallel()
	// A boolean is not text: a string that is not one is "must be a boolean", whatever it holds.
	if _, err := field(`"\u0000"`).Bool(); err == nil || err.Error() != "invalid: f must be a boolean" {
		t.Errorf("Bool(NUL) err = %v, want f must be a boolean", err)
	}
}
