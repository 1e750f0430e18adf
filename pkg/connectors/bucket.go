package connectors

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A channel's bucket of one operation is kept as the generic cell rate algorithm keeps a
// token bucket: one time, tat (the theoretical arrival time, in Unix milliseconds), and the
// interval between tokens, iv (milliseconds, 1000/rate). The bucket's level is
// burst - (tat-now)/iv: tat at or before now is a full bucket, and each token taken moves tat
// one interval later. One number holds both the level and the time of the last refill, so a
// take is one conditional UpdateItem on that number (store.go).
type bucket struct {
	tat, iv int64
}

// margin widens the interval between tokens beyond what the channel's rate says, so that
// calls the bucket spaces exactly still arrive spaced enough after the jitter between taking
// a token and the call reaching the channel (a DynamoDB round trip and a scheduling delay).
const margin = 1.1

// interval is the milliseconds between tokens at rate per second, with the margin (at least 1).
func interval(rate float64) int64 {
	if rate <= 0 {
		return 1000
	}
	return max(1, int64(math.Round(1000*margin/rate)))
}

// take decides a take of one token at now (ms) from a bucket of burst (see takeN).
func (b bucket) take(burst int, now int64) (tat, wait int64) { return b.takeN(burst, 1, now) }

// blocked is the tat of a bucket the channel closed until until (ms): its first token comes
// at until, then one per interval.
func (b bucket) blocked(burst int, until int64) int64 {
	return until + int64(max(burst, 1)-1)*b.iv
}

// retryAfter reads a Retry-After header (seconds, or an HTTP date) as a time after now;
// false when absent or unreadable.
func retryAfter(v string, now time.Time) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && s < 86400 {
		return now.Add(time.Duration(s * float64(time.Second))), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// rateHeader reads a rate header (requests per second) as a bucket interval; false when
// absent or unreadable.
func rateHeader(v string) (int64, bool) {
	r, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || r <= 0 || math.IsInf(r, 0) {
		return 0, false
	}
	return interval(r), true
}

// nextCursor is the poll cursor after a poll that saw orders changed up to maxSeen (the
// channel's times): maxSeen minus the safety overlap, never before the stored cursor. A poll
// that saw nothing keeps the stored cursor.
func nextCursor(stored, maxSeen time.Time, overlap time.Duration) time.Time {
	if maxSeen.IsZero() {
		return stored
	}
	if c := maxSeen.Add(-overlap); c.After(stored) {
		return c
	}
	return stored
}
