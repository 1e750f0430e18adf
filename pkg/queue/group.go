package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// MaxDelay is the longest delay SQS gives a message.
const MaxDelay = 15 * time.Minute

// Group is a FIFO message group id for the thing the parts name, prefixed
// by what it is: a hash keeps it within SQS's 128 characters however long
// the parts are.
func Group(prefix string, parts ...string) string {
	h := sha256.New()
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0x1f})
		}
		h.Write([]byte(p))
	}
	return prefix + "-" + hex.EncodeToString(h.Sum(nil)[:16])
}
