package store

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKeyText(t *testing.T) {
	t.Parallel()
	short := strings.Repeat("é", 400) // 800 bytes
	if KeyText(short) != short {
		t.Fatal("short text changed")
	}
	long := strings.Repeat("😀", 255) // 1,020 bytes
	other := strings.Repeat("😀", 254) + "😃"
	k := KeyText(long)
	if len(k) > MaxKeyTextBytes || !utf8.ValidString(k) {
		t.Fatalf("KeyText(long) is %d bytes, valid UTF-8 %v", len(k), utf8.ValidString(k))
	}
	if k == KeyText(other) {
		t.Fatal("two long texts with one prefix share a key")
	}
	if k != KeyText(long) {
		t.Fatal("KeyText is not stable")
	}
	if !strings.HasPrefix(k, strings.Repeat("😀", 200)) {
		t.Fatal("the key does not keep the text's prefix")
	}
}
