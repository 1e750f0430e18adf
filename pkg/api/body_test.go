package api

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

func status(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

func TestDecodeObject(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		body string
		want int
	}{
		{"object", `{"a":1}`, 0},
		{"object with spaces", " \n{\"a\":1} ", 0},
		{"empty", "", http.StatusBadRequest},
		{"not json", "{a:1}", http.StatusBadRequest},
		{"truncated", `{"a":`, http.StatusBadRequest},
		{"array", `[1,2]`, http.StatusBadRequest},
		{"string", `"x"`, http.StatusBadRequest},
		{"null", `null`, http.StatusBadRequest},
		{"two values", `{} {}`, http.StatusBadRequest},
		{"not UTF-8", "{\"sku\":\"Caf\xe9\"}", http.StatusBadRequest},
		{"oversize", `{"a":"` + strings.Repeat("x", MaxBodyBytes) + `"}`, http.StatusRequestEntityTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := DecodeObject(c.body)
			if got := status(err); got != c.want {
				t.Fatalf("DecodeObject(%.40q) status = %d, want %d (err %v)", c.body, got, c.want, err)
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
			if s := status(err); s != http.StatusBadRequest && s != http.StatusRequestEntityTooLarge {
				t.Fatalf("status %d for %q", s, body)
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
