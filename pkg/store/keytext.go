package store

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// MaxKeyTextBytes is the most bytes of user text (a SKU, a display ref)
// KeyText puts in a sort key: with a separator and a 36-character uuid
// beside it, a key stays well under DynamoDB's 1,024-byte sort key.
const MaxKeyTextBytes = 900

// keyTextMark separates a shortened text's prefix from its hash; it sorts
// before every printable character, like Sep.
const keyTextMark = "\x1e"

// KeyText is the form of user text inside a sort key. Text of up to
// MaxKeyTextBytes bytes is itself, so keys sort by it; longer text (a
// 255-character SKU of four-byte characters is 1,020 bytes) is its first
// bytes, a mark and a hash of the whole, so the key stays unique, fits, and
// still sorts by the text's first 880 bytes. Items keep the full text in
// an attribute of their own.
func KeyText(s string) string {
	if len(s) <= MaxKeyTextBytes {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	cut := MaxKeyTextBytes - len(keyTextMark) - 2*8
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + keyTextMark + hex.EncodeToString(sum[:8])
}
