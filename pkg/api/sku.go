package api

import (
	"unicode"
	"unicode/utf8"
)

// MaxSKULength is the longest SKU, in characters.
const MaxSKULength = 255

// ValidSKU reports whether s is a SKU: 1 to 255 characters of valid UTF-8
// with no control characters. SKUs are case-sensitive and otherwise free.
func ValidSKU(s string) bool {
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxSKULength {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// CheckSKU returns a 422 naming field unless s is a valid SKU.
func CheckSKU(field, s string) error {
	if !ValidSKU(s) {
		return Invalid("%s must be 1 to 255 characters without control characters", field)
	}
	return nil
}
