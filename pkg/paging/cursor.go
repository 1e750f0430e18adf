package paging

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"strings"
	"sync"

	"github.com/multisell/multisell/pkg/errs"
)

// CursorKeyEnv names the environment variable holding the key cursors are
// signed with. Every instance of the service must have the same one (the
// template sets it); without it a process signs with a key of its own,
// made at random when first needed, which only that process accepts.
const CursorKeyEnv = "PAGE_CURSOR_KEY"

// The messages of a cursor the service refuses (422).
const (
	ForgedCursorMessage = "cursor is not valid: it was not made by this service or was altered"
	OtherCursorMessage  = "cursor belongs to another list, other filters or another account"
	PageAndCursor       = "page and cursor cannot be used together"
)

// bindingSize and macSize are the bytes of a cursor's binding (a hash of
// the account, the list and its filters) and of its signature.
const (
	bindingSize = 16
	macSize     = 16
)

// Cursor is the position a page of a list ends at, bound to the account,
// the list and its filters it was read from: the next page starts right
// after it, whatever was written to the list meanwhile. The zero Cursor is
// the start of any list. A client sees it only as the opaque, signed text
// of Encode.
type Cursor struct {
	binding  [bindingSize]byte
	position []byte
}

// NewCursor is the cursor after position (a list's own encoding of where
// an item sits in its order) in list, the name of the list and its filters,
// of account.
func NewCursor(account, list string, position []byte) *Cursor {
	return &Cursor{binding: bind(account, list), position: position}
}

// Position is where the cursor points in list of account: nil for the
// start, else the position given to NewCursor; a 422 when the cursor was
// made for another list, other filters or another account.
func (c *Cursor) Position(account, list string) ([]byte, error) {
	if c.position == nil && c.binding == [bindingSize]byte{} {
		return nil, nil
	}
	if c.binding != bind(account, list) {
		return nil, errs.Invalid(OtherCursorMessage)
	}
	return c.position, nil
}

// Encode is the cursor as the client sees it: URL-safe base64 of the
// binding, the position and an HMAC-SHA256 of both under the service's key.
func (c *Cursor) Encode() string {
	payload := append(c.binding[:], c.position...)
	return base64.RawURLEncoding.EncodeToString(append(payload, sign(payload)...))
}

// ParseCursor reads a cursor a client sent back: "" is the start of the
// list; anything the service did not sign, or signed and then changed, is
// a 422.
func ParseCursor(s string) (*Cursor, error) {
	if s == "" {
		return &Cursor{}, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) < bindingSize+macSize {
		return nil, errs.Invalid(ForgedCursorMessage)
	}
	payload, mac := raw[:len(raw)-macSize], raw[len(raw)-macSize:]
	if !hmac.Equal(mac, sign(payload)) {
		return nil, errs.Invalid(ForgedCursorMessage)
	}
	c := &Cursor{position: bytes.Clone(payload[bindingSize:])}
	copy(c.binding[:], payload)
	return c, nil
}

// bind is the binding of list of account: the first bytes of a SHA-256 of
// both (signed with the rest, so it need not be secret).
func bind(account, list string) [bindingSize]byte {
	h := sha256.Sum256([]byte(account + "\x00" + list))
	return [bindingSize]byte(h[:bindingSize])
}

// sign is the truncated HMAC-SHA256 of payload under the cursor key.
func sign(payload []byte) []byte {
	m := hmac.New(sha256.New, cursorKey())
	m.Write(payload)
	return m.Sum(nil)[:macSize]
}

// cursorKey is the key of CursorKeyEnv, or one made at random for this
// process when it is unset.
var cursorKey = sync.OnceValue(func() []byte {
	if k := os.Getenv(CursorKeyEnv); k != "" {
		return []byte(k)
	}
	k := make([]byte, 32)
	_, _ = rand.Read(k) // never fails (crypto/rand.Read's documentation)
	return k
})

// ListName names a list and the values of its filters, for cursors (the
// List of store.PageQuery, the list of SliceAfter): two requests with the
// same name are the same list.
func ListName(list string, filters ...string) string {
	return strings.Join(append([]string{list}, filters...), "\x1f")
}
