package push

import (
	"time"

	"github.com/multisell/multisell/pkg/queue"
)

// DefaultRetryBase is the wait before the first retry of a failed push
// when none is configured (SYNC_RETRY_BASE).
const DefaultRetryBase = 30 * time.Second

// Backoff is the wait before the retry of a push that failed attempt
// times: base (DefaultRetryBase when not positive) doubled per failed
// attempt, at most queue.MaxDelay (what SQS can delay a message).
func Backoff(base time.Duration, attempt int64) time.Duration {
	if base <= 0 {
		base = DefaultRetryBase
	}
	d := base
	for i := int64(1); i < attempt && d < queue.MaxDelay; i++ {
		d *= 2
	}
	return min(d, queue.MaxDelay)
}
