package auth

import (
	"encoding/base64"
	"testing"
)

func TestParseBasic(t *testing.T) {
	t.Parallel()
	enc := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	cases := []struct {
		name, header, token, secret string
		ok                          bool
	}{
		{"valid", "Basic " + enc("tok:sec"), "tok", "sec", true},
		{"scheme case", "basic " + enc("tok:sec"), "tok", "sec", true},
		{"colon in secret", "Basic " + enc("tok:a:b"), "tok", "a:b", true},
		{"missing", "", "", "", false},
		{"bearer", "Bearer " + enc("tok:sec"), "", "", false},
		{"no payload", "Basic", "", "", false},
		{"bad base64", "Basic !!!", "", "", false},
		{"no colon", "Basic " + enc("toksec"), "", "", false},
		{"empty token", "Basic " + enc(":sec"), "", "", false},
		{"empty secret", "Basic " + enc("tok:"), "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tok, sec, ok := ParseBasic(c.header)
			if ok != c.ok || tok != c.token || sec != c.secret {
				t.Fatalf("ParseBasic(%q) = %q, %q, %v", c.header, tok, sec, ok)
			}
		})
	}
}

func FuzzParseBasic(f *testing.F) {
	for _, s := range []string{"Basic dG9rOnNlYw==", "Basic", "", "Basic ====", "Digest x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, header string) {
		tok, sec, ok := ParseBasic(header)
		if ok && (tok == "" || sec == "") {
			t.Fatalf("accepted empty credentials from %q", header)
		}
	})
}

func TestAPIWildcard(t *testing.T) {
	t.Parallel()
	got := apiWildcard("arn:aws:execute-api:us-east-1:123:abc/v1/GET/orders/5")
	if got != "arn:aws:execute-api:us-east-1:123:abc/v1/*/*" {
		t.Fatalf("apiWildcard = %q", got)
	}
}
