package connectors

import (
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/errs"
)

// FuzzParseFields: any credentials document is the fields' values or a 422 naming a
// field, and an error never quotes what was sent (credentials are secrets).
func FuzzParseFields(f *testing.F) {
	for _, seed := range []string{
		`{"client_id":"a","client_secret":"b"}`, `{"client_id":"a"}`, `{"client_id":"a","client_secret":"b","x":"c"}`,
		`{"client_id":1,"client_secret":null}`, `{"client_id":"a\u0007","client_secret":"b"}`, `[]`, `null`, ``, `{} {}`,
	} {
		f.Add(seed)
	}
	fields := []Field{{Name: "client_id", Max: 64}, {Name: "client_secret", Max: 8}}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := ParseFields([]byte(raw), fields...)
		if err != nil {
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.KindInvalid || e.Message == "" {
				t.Fatalf("ParseFields(%q): %v, want a 422", raw, err)
			}
			if len(raw) > 12 && strings.Contains(e.Message, raw) {
				t.Fatalf("ParseFields(%q): the error quotes the document: %s", raw, e.Message)
			}
			return
		}
		for _, fd := range fields {
			if v := got[fd.Name]; v == "" || len([]rune(v)) > fd.Max {
				t.Fatalf("ParseFields(%q) accepted %s = %q", raw, fd.Name, v)
			}
		}
	})
}

// FuzzDecodeOutbox: any message body on the connector queue is a message the runtime can
// push or an error (the message dropped), never a panic, and an accepted one names its
// account and channel.
func FuzzDecodeOutbox(f *testing.F) {
	for _, seed := range []string{
		`{"type":"listing.quantity","account_id":"a1","channel_uuid":"c1","channel_sku":"S","quantity":7,"version":3}`,
		`{"type":"shipment.tracking","account_id":"a1","channel_uuid":"c1","display_ref":"1","shipment_id":"s","items":[{"order_item_ref":"L","sku":"S","quantity":1}]}`,
		`{"type":"listing.quantity","quantity":"x"}`, `{"type":null}`, `[]`, ``, `{"type":"listing.result"}`,
	} {
		f.Add(seed, "a1")
	}
	f.Fuzz(func(t *testing.T, body, attr string) {
		if _, err := decodeOutbox(body, attr); err == nil && attr == "" && !strings.Contains(body, "account_id") {
			t.Fatalf("decodeOutbox(%q, %q) accepted a message without an account", body, attr)
		}
	})
}

// FuzzRetryAfter: a channel's Retry-After and rate headers are read as a time not before now
// and a positive interval, or not at all.
func FuzzRetryAfter(f *testing.F) {
	for _, seed := range []string{"2", "0.5", "Wed, 21 Oct 2026 07:28:00 GMT", "-1", "1e400", "NaN", "", "86400"} {
		f.Add(seed)
	}
	now := time.Unix(1_800_000_000, 0)
	f.Fuzz(func(t *testing.T, v string) {
		if at, ok := retryAfter(v, now); ok && at.IsZero() {
			t.Fatalf("retryAfter(%q) = zero time", v)
		}
		if iv, ok := rateHeader(v); ok && iv < 1 {
			t.Fatalf("rateHeader(%q) = %d ms", v, iv)
		}
	})
}
