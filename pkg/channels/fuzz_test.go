package channels

import (
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// FuzzParseConnect: whatever a POST or PATCH /channels body holds, ParseConnect and
// ParsePatch answer an input or a 422 with a message, never a panic or another kind.
func FuzzParseConnect(f *testing.F) {
	for _, seed := range []string{
		`{"channel":{"name":"Shop","type":"generic","credentials":{"client_id":"a","client_secret":"b","refresh_token":"c"},"endpoints":{"api":"http://127.0.0.1:1","auth":"http://127.0.0.1:1/t"}}}`,
		`{"channel":{"state":"inactive"}}`, `{"channel":{"state":"active","credentials":{"x":1}}}`,
		`{"channel":{"name":null,"type":7,"credentials":"x","endpoints":[]}}`,
		`{"channel":{"name":"a\u0000b","type":"","credentials":{},"endpoints":{"api":"ftp://x"}}}`,
		`{"channel":"{}"}`, `{"channel":[]}`, `{"channel":null}`, `{}`, `[]`, `"x"`, ``,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		body, err := lenient.DecodeObject(raw)
		if err != nil {
			return
		}
		for name, parse := range map[string]func(lenient.Object) error{
			"ParseConnect": func(o lenient.Object) error { _, err := ParseConnect(o); return err },
			"ParsePatch":   func(o lenient.Object) error { _, err := ParsePatch(o); return err },
		} {
			if err := parse(body); err != nil {
				if e, ok := errs.As(err); !ok || e.Message == "" || (e.Kind != errs.KindInvalid && e.Kind != errs.KindTooLarge && e.Kind != errs.KindMalformed) {
					t.Fatalf("%s(%q): %v, want a 4xx kind with a message", name, raw, err)
				}
			}
		}
	})
}
