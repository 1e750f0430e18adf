// Package sku holds the one rule every SKU follows, wherever it comes from
// (a path, a body, a query, an imported order or a queue message): 1 to 255
// characters of valid UTF-8 with no control characters. SKUs are otherwise
// free text and case-sensitive (docs/decisions.md).
package sku

import (
	"unicode"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/errs"
)

// MaxLength is the longest SKU, in characters.
const MaxLength = 255

// Valid reports whether s is a SKU.
func Valid(s string) bool {
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxLength {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// Check returns an errs.Invalid naming field unless s is a SKU.
func Check(field, s string) error {
	if !Valid(s) {
		return errs.Invalid("%s must be 1 to 255 characters without control characters", field)
	}
	return nil
}
