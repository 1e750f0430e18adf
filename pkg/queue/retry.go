package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// DefaultRetryBase is the wait before the first retry of a failed push to a
// channel when none is configured (SYNC_RETRY_BASE).
const DefaultRetryBase = 30 * time.Second

// MaxDelay is the longest delay SQS gives a message.
const MaxDelay = 15 * time.Minute

// Backoff is the wait before the retry of a failed push to a channel: base
// (DefaultRetryBase when not positive) doubled per failed attempt, at most
// MaxDelay. Listings and shipments retry alike (docs/channel-sync.md).
func Backoff(base time.Duration, attempt int64) time.Duration {
	if base <= 0 {
		base = DefaultRetryBase
	}
	d := base
	for i := int64(1); i < attempt && d < MaxDelay; i++ {
		d *= 2
	}
	return min(d, MaxDelay)
}

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
