package inventory

import (
	"strings"
	"testing"
	"time"
)

func TestRequestID(t *testing.T) {
	t.Parallel()
	id := newRequestID("acct_a")
	got, at, ok := parseRequestID("acct_a", id)
	if !ok || got != id {
		t.Fatalf("parseRequestID(own id) = %q, %v", got, ok)
	}
	if d := time.Since(at); d < -time.Second || d > time.Minute {
		t.Errorf("id time %v is not now", at)
	}
	if got, _, ok := parseRequestID("acct_a", strings.ToUpper(id)); !ok || got != id {
		t.Errorf("upper case id: %q, %v", got, ok)
	}
	tampered := []byte(id)
	tampered[len(tampered)-1] ^= 1
	for _, tt := range []struct{ name, account, id string }{
		{"other account", "acct_b", id},
		{"tampered", "acct_a", string(tampered)},
		{"not a uuid", "acct_a", "not-a-uuid"},
		{"empty", "acct_a", ""},
		{"uuid v4", "acct_a", "6ba7b810-9dad-41d1-80b4-00c04fd430c8"},
		{"path tricks", "acct_a", "../" + id},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, got := parseRequestID(tt.account, tt.id); got {
				t.Errorf("%q: got accepted, want refused", tt.id)
			}
		})
	}
}

func TestRequestIDsDiffer(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		id := newRequestID("acct_a")
		if seen[id] {
			t.Fatalf("duplicate id %s", id)
		}
		seen[id] = true
	}
}

// FuzzParseRequestID checks that only the account's own ids are accepted,
// and always in one canonical form.
func FuzzParseRequestID(f *testing.F) {
	f.Add(newRequestID("acct_a"))
	f.Add(strings.ToUpper(newRequestID("acct_a")))
	f.Add(newRequestID("acct_b"))
	f.Add("urn:uuid:" + newRequestID("acct_a"))
	f.Add("not-an-id")
	f.Fuzz(func(t *testing.T, s string) {
		id, _, ok := parseRequestID("acct_a", s)
		if !ok {
			return
		}
		again, _, ok2 := parseRequestID("acct_a", id)
		if !ok2 || again != id {
			t.Fatalf("canonical form %q of %q does not parse to itself", id, s)
		}
		if _, _, other := parseRequestID("acct_b", id); other {
			t.Fatalf("%q accepted for two accounts", s)
		}
	})
}

// TestIDPrefix: every id made at or after a time sorts at or after its
// prefix, every id made before sorts before it.
func TestIDPrefix(t *testing.T) {
	t.Parallel()
	before := newRequestID("acct_a")
	time.Sleep(2 * time.Millisecond)
	at := time.Now()
	time.Sleep(time.Millisecond)
	after := newRequestID("acct_a")
	p := idPrefix(at)
	if len(p) != len("0190a3f1-7c2e") || !(before < p) || !(after >= p) {
		t.Errorf("idPrefix = %q; ids before %q and after %q", p, before, after)
	}
}
