package sku

import (
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

func TestValid(t *testing.T) {
	t.Parallel()
	longest := strings.Repeat("é", MaxLength)
	tests := []struct {
		name string
		s    string
		want bool
	}{
		{"plain", "ABC-1", true},
		{"punctuation and space", "A/B C+#?", true},
		{"non-ASCII", "ü", true},
		{"255 characters", longest, true},
		{"empty", "", false},
		{"newline", "a\nb", false},
		{"NUL", "a\x00", false},
		{"DEL", "a\x7f", false},
		{"256 characters", longest + "x", false},
		{"not UTF-8", "\xff", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Valid(tt.s); got != tt.want {
				t.Errorf("Valid(%.20q) = %v, want %v", tt.s, got, tt.want)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	if err := Check("sku", "ok"); err != nil {
		t.Errorf("Check(ok) = %v, want nil", err)
	}
	err := Check("items[0].sku", "")
	if got, want := errs.KindOf(err), errs.KindInvalid; got != want {
		t.Fatalf("Check(\"\") kind = %v, want %v", got, want)
	}
	if got, want := err.Error(), "invalid: items[0].sku must be 1 to 255 characters without control characters"; got != want {
		t.Errorf("Check(\"\") = %q, want %q", got, want)
	}
}
