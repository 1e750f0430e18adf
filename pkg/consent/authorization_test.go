package consent

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
)

// TestStates: a state is the account and 130 random bits, never twice the same; what is
// not shaped like one is refused before any read.
func TestStates(t *testing.T) {
	t.Parallel()
	a, secretA := newState("acct_0123456789abcdef0123")
	b, _ := newState("acct_0123456789abcdef0123")
	if a == b {
		t.Fatal("two states alike")
	}
	acct, secret, ok := splitState(a)
	if !ok || acct != "acct_0123456789abcdef0123" || secret != secretA || secretDigest(secret) == secret {
		t.Errorf("splitState(%q) = %q %q %v", a, acct, secret, ok)
	}
	for _, bad := range []string{"", "acct_x", ".ABCDEFGHIJKLMNOPQRSTUVWXYZ", "acct_x.short", "acct\x00x.ABCDEFGHIJKLMNOPQRSTUVWXYZ", strings.Repeat("a", 65) + ".ABCDEFGHIJKLMNOPQRSTUVWXYZ"} {
		if _, _, ok := splitState(bad); ok {
			t.Errorf("splitState(%q) accepted", bad)
		}
	}
}

// TestVerifier: the PKCE verifier has RFC 7636's 43 characters and its challenge is S256.
func TestVerifier(t *testing.T) {
	t.Parallel()
	v, c := newVerifier()
	sum := sha256.Sum256([]byte(v))
	if len(v) != 43 || c != base64.RawURLEncoding.EncodeToString(sum[:]) {
		t.Errorf("verifier %q challenge %q", v, c)
	}
}

// TestCheckFields: every field the type requires, no other, named in the 422.
func TestCheckFields(t *testing.T) {
	t.Parallel()
	want := []string{"marketplace_id"}
	for _, tc := range []struct {
		name string
		got  map[string]string
		says string
	}{
		{"all", map[string]string{"marketplace_id": "M"}, ""},
		{"missing", map[string]string{}, "authorization.marketplace_id is required for Amazon"},
		{"extra", map[string]string{"marketplace_id": "M", "shop_domain": "x"}, "authorization.shop_domain is not a field of Amazon authorizations (they take type, name, return_url, marketplace_id)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkFields("Amazon", want, tc.got)
			if got := errText(err); got != tc.says {
				t.Errorf("got %q, want %q", got, tc.says)
			}
		})
	}
}

// errText is err's message ("" for nil), without its kind.
func errText(err error) string {
	if err == nil {
		return ""
	}
	_, msg, _ := strings.Cut(err.Error(), ": ")
	return msg
}
