package paging

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

func TestCursorRoundTrip(t *testing.T) {
	t.Parallel()
	c := NewCursor("acct", ListName("products"), []byte(`{"SK":"Sabc"}`))
	got, err := ParseCursor(c.Encode())
	if err != nil {
		t.Fatalf("ParseCursor: %v", err)
	}
	pos, err := got.Position("acct", ListName("products"))
	if err != nil || !bytes.Equal(pos, []byte(`{"SK":"Sabc"}`)) {
		t.Errorf("Position = %q, %v; want the position given", pos, err)
	}
}

func TestCursorRefused(t *testing.T) {
	t.Parallel()
	token := NewCursor("acct", "products", []byte("position")).Encode()
	altered := []byte(token)
	altered[len(altered)/2] ^= 1
	tests := []struct {
		name, token   string
		account, list string
		want          string
	}{
		{"altered", string(altered), "acct", "products", ForgedCursorMessage},
		{"not base64", "!!!", "acct", "products", ForgedCursorMessage},
		{"too short", "AAAA", "acct", "products", ForgedCursorMessage},
		{"another account", token, "other", "products", OtherCursorMessage},
		{"another list", token, "acct", "inventory", OtherCursorMessage},
		{"other filters", token, "acct", ListName("products", "a"), OtherCursorMessage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := ParseCursor(tt.token)
			if err == nil {
				_, err = c.Position(tt.account, tt.list)
			}
			if e, ok := errs.As(err); !ok || e.Kind != errs.KindInvalid || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want invalid %q", err, tt.want)
			}
		})
	}
}

func TestEmptyCursorIsTheStart(t *testing.T) {
	t.Parallel()
	c, err := ParseCursor("")
	if err != nil {
		t.Fatal(err)
	}
	if pos, err := c.Position("any", "list"); pos != nil || err != nil {
		t.Errorf("Position = %q, %v; want the start", pos, err)
	}
}

func TestSliceAfter(t *testing.T) {
	t.Parallel()
	items := []string{"a", "b", "c", "d", "e"}
	id := func(s string) string { return s }
	tests := []struct {
		name  string
		after string // "" the start
		gone  string // an item removed after the cursor was made
		want  []string
		more  bool
	}{
		{"start", "", "", []string{"a", "b"}, true},
		{"after b", "b", "", []string{"c", "d"}, true},
		{"after its item left", "b", "b", []string{"c", "d"}, true},
		{"last page", "c", "", []string{"d", "e"}, false},
		{"past the end", "e", "", []string{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := Page{Limit: 2, After: &Cursor{}}
			if tt.after != "" {
				p.After = NewCursor("acct", "letters", []byte(tt.after))
			}
			list := items
			if tt.gone != "" {
				list = slices.DeleteFunc(slices.Clone(items), func(s string) bool { return s == tt.gone })
			}
			got, next, err := SliceAfter(list, p, "acct", "letters", id)
			if err != nil || strings.Join(got, ",") != strings.Join(tt.want, ",") || (next != nil) != tt.more {
				t.Errorf("SliceAfter = %v, next %v, %v; want %v, more %v", got, next, err, tt.want, tt.more)
			}
		})
	}
}
