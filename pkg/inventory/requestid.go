package inventory

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/google/uuid"
)

// A request id is a UUID v7 (its first 48 bits are the time it was made)
// whose last four bytes are a checksum of the account and the other twelve.
// The id alone then tells GET /inventory/adjustments/{request_id} whether a
// request the consumer has not applied yet is the caller's and recent,
// without a write when the request is queued.

// newRequestID returns a new request id of the account.
func newRequestID(account string) string {
	id := uuid.Must(uuid.NewV7())
	copy(id[12:], checksum(account, id))
	return id.String()
}

// parseRequestID returns the canonical form and the time of a request id of
// the account; ok is false for anything else, another account's ids too.
func parseRequestID(account, s string) (id string, at time.Time, ok bool) {
	u, err := uuid.Parse(s)
	if err != nil || u.Version() != 7 || string(u[12:]) != string(checksum(account, u)) {
		return "", time.Time{}, false
	}
	ms := int64(binary.BigEndian.Uint64(append([]byte{0, 0}, u[:6]...)))
	return u.String(), time.UnixMilli(ms), true
}

// idPrefix is the beginning every request id made at t or later sorts at or
// after: the canonical form of its 48-bit millisecond time ("0190a3f1-7c2e").
func idPrefix(t time.Time) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t.UnixMilli()))
	h := hex.EncodeToString(b[2:])
	return h[:8] + "-" + h[8:]
}

// checksum is the four bytes that tie a request id to its account.
func checksum(account string, id uuid.UUID) []byte {
	h := sha256.New()
	h.Write([]byte(account))
	h.Write(id[:12])
	return h.Sum(nil)[:4]
}
