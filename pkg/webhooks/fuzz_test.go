package webhooks_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/webhookhttp"
	"github.com/multisell/multisell/pkg/webhooks"
)

// FuzzParseInput: a body read as the endpoints read it (lenient.DecodeObject,
// then ParseInput, for a creation and an update, under the AWS and the
// local rule) never panics and is refused only as bad input (400, 413 or
// 422), never as an internal error. An accepted input holds only what the
// rules allow: a URL the policy accepts (required on creation), a
// non-empty list of known event types or "*" without repeats (required on
// creation), a description of at most 500 characters without control
// characters but tab and line breaks, and active only when it was sent.
func FuzzParseInput(f *testing.F) {
	for _, seed := range []string{
		`{"webhook":{"url":"https://hooks.example.com/in","events":["*"]}}`,
		`{"webhook":{"url":"http://127.0.0.1:4000/","events":["order.created","order.created"],"description":"ERP","active":"false"}}`,
		`{"webhook":{"url":"https://10.0.0.1/","events":["order.created"]}}`,
		`{"webhook":{"url":"https://[fd00:ec2::254]/","events":["*"]}}`,
		`{"webhook":{"url":"https://h/#f","events":[]}}`,
		`{"webhook":{"url":null,"events":"order.created"}}`,
		`{"webhook":{"events":[1,null,{}],"description":"a\u0000b"}}`,
		`{"webhook":{"description":null,"active":1}}`,
		`{"webhook":{"description":"x\u0085","active":"yes"}}`,
		`{"webhook":{"description":"next line\u0085"}}`,
		`{"webhook":{"url":42,"events":["ORDER.CREATED"]}}`,
		`{"webhook":"{}"}`, `{"webhook":[]}`, `{"webhook":null}`, `{}`, `[]`, `"x"`, ``, `{"webhook":{}}`,
	} {
		f.Add(seed)
	}
	policies := []webhookhttp.Policy{{}, {Local: true}}
	f.Fuzz(func(t *testing.T, raw string) {
		body, err := lenient.DecodeObject(raw)
		if err != nil {
			if k := errs.KindOf(err); k != errs.KindMalformed && k != errs.KindTooLarge {
				t.Fatalf("DecodeObject(%q): %v, kind %v", raw, err, k)
			}
			return
		}
		for _, p := range policies {
			for _, create := range []bool{true, false} {
				in, err := webhooks.ParseInput(body, create, p)
				if err != nil {
					e, ok := errs.As(err)
					if !ok || e.Kind != errs.KindInvalid || e.Message == "" {
						t.Fatalf("ParseInput(%q, create %v, %+v): %v, want a 422 with a message", raw, create, p, err)
					}
					continue
				}
				checkInput(t, raw, body, in, create, p)
			}
		}
	})
}

// checkInput holds an accepted input to the rules.
func checkInput(t *testing.T, raw string, body lenient.Object, in webhooks.Input, create bool, p webhookhttp.Policy) {
	t.Helper()
	where := func() string { return fmt.Sprintf("%q (create %v, %+v)", raw, create, p) }
	switch {
	case in.URL != nil:
		if err := p.CheckURL(*in.URL); err != nil {
			t.Fatalf("%s: accepted url %q, which %+v refuses: %v", where(), *in.URL, p, err)
		}
	case create:
		t.Fatalf("%s: a creation accepted without a url", where())
	}
	switch {
	case in.Events != nil:
		if len(in.Events) == 0 {
			t.Fatalf("%s: accepted an empty events list", where())
		}
		for i, typ := range in.Events {
			if typ != events.AllTypes && !events.KnownType(typ) {
				t.Fatalf("%s: accepted event type %q", where(), typ)
			}
			if slices.Contains(in.Events[:i], typ) {
				t.Fatalf("%s: events %q repeat %q", where(), in.Events, typ)
			}
		}
	case create:
		t.Fatalf("%s: a creation accepted without events", where())
	}
	if in.Description != nil {
		d := *in.Description
		if n := utf8.RuneCountInString(d); n > 500 {
			t.Fatalf("%s: accepted a description of %d characters", where(), n)
		}
		if strings.ContainsFunc(d, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' }) {
			t.Fatalf("%s: accepted description %q with a control character", where(), d)
		}
		if !in.DescriptionSet {
			t.Fatalf("%s: a description without DescriptionSet", where())
		}
	}
	w, _ := body.Field("webhook").Object()
	if got, want := in.Active != nil, w.Has("active"); got != want {
		t.Fatalf("%s: active set %v, sent %v", where(), got, want)
	}
	if got, want := in.DescriptionSet, w.Has("description"); got != want {
		t.Fatalf("%s: description set %v, sent %v", where(), got, want)
	}
}
