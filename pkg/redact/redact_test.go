package redact

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	t.Parallel()
	secrets := []string{"s3cr3t/value+1", "refresh-value-xyz", "ab"}
	tests := []struct {
		name, in string
		gone     []string // what must not be left
		kept     string   // what must be left
	}{
		{"echoed JSON body", `invalid_grant: {"client_id":"c1","client_secret":"s3cr3t\/value+1","refresh_token":"refresh-value-xyz"}`,
			[]string{"s3cr3t", "refresh-value"}, "invalid_grant"},
		{"form body of unknown values", "bad request: client_secret=other-secret&refresh_token=other-refresh&grant_type=refresh_token",
			[]string{"other-secret", "other-refresh"}, "grant_type=refresh_token"},
		{"URL-escaped known value", "got client=s3cr3t%2Fvalue%2B1", []string{"s3cr3t"}, "got client="},
		{"Authorization header echo", "500: map[Authorization:[Bearer tok-123456] Accept:[*/*]]", []string{"tok-123456"}, "Accept"},
		{"header line", "Authorization: Basic dXNlcjpwYXNz\r\nHost: x", []string{"dXNlcjpwYXNz"}, "Host: x"},
		{"bare bearer", "token bearer abc.def.ghi refused", []string{"abc.def.ghi"}, "refused"},
		{"secret cut short at the end", "status 400: echo refresh-val", []string{"refresh-val"}, "status 400"},
		{"short values left", "ab is no secret", nil, "ab is no secret"},
		{"a word that starts a secret is left", "the refresh token was refresh", nil, "was refresh"},
		{"next_page_token is no secret", `{"next_page_token":"17"}`, nil, `"17"`},
		{"a token URL in prose", "POST https://x.example/o2/token: the channel is unreachable", nil, "token: the channel"},
		{"a known value in a secret's pair, once", `{"client_secret":"s3cr3t/value+1"}`, []string{"s3cr3t", "]]"}, `{"client_secret":"[redacted]"}`},
		{"a Go header map", "map[X-Shopify-Access-Token:[shpat_0123456789] Accept:[*/*]]", []string{"shpat_0123"}, "Access-Token:[[redacted]] Accept"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Text(tt.in, secrets...)
			for _, g := range tt.gone {
				if strings.Contains(got, g) {
					t.Errorf("Text(%q) = %q, still holds %q", tt.in, got, g)
				}
			}
			if !strings.Contains(got, tt.kept) {
				t.Errorf("Text(%q) = %q, lost %q", tt.in, got, tt.kept)
			}
		})
	}
}

func TestTextBounded(t *testing.T) {
	t.Parallel()
	if got, want := len([]rune(Text(strings.Repeat("é", 2*MaxText)))), MaxText+3; got != want {
		t.Errorf("%d characters, want %d", got, want)
	}
}

func TestSecrets(t *testing.T) {
	t.Parallel()
	got := Secrets(map[string]any{"a": "x", "b": []any{"y", 1.0, map[string]any{"c": "z"}}})
	if len(got) != 3 {
		t.Errorf("Secrets = %q, want x, y, z", got)
	}
}
