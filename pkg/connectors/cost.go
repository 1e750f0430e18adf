package connectors

import (
	"context"
	"fmt"
	"math"
)

// Some channels limit calls by cost rather than by count (Shopify's GraphQL Admin API: each
// query costs points of a bucket that restores so many points a second). Such an operation's
// Limit reads as points: Burst the bucket's points, Rate the points restored per second. A
// call takes its cost in points (Session.CallCost), and the channel's own statement of the
// bucket after each answer (ReportCost) becomes the shared bucket's level and rate, so the
// instances of the functions wait for the points the channel says it has, not for a refusal.

// CostStatus is a channel's statement of a cost bucket: its Maximum points, the points
// Available now and the points restored per second (Shopify's throttleStatus).
type CostStatus struct {
	Maximum, Available, Restore float64
}

// takeN decides a take of n tokens at now (ms) from a bucket of burst: the bucket's tat
// after it, or how long to wait (ms) before the bucket has n tokens. n is at least 1 and at
// most burst (a take larger than the bucket waits for a full bucket).
func (b bucket) takeN(burst, n int, now int64) (tat, wait int64) {
	burst = max(burst, 1)
	n = min(max(n, 1), burst)
	base := max(b.tat, now)
	ahead := int64(burst-n) * b.iv
	if base-now > ahead {
		return b.tat, base - ahead - now
	}
	return base + int64(n)*b.iv, 0
}

// reported is the bucket of burst whose level at now (ms) is the st.Available points the
// channel states, restoring st.Restore points a second (with the margin); ok is false when
// st states no rate.
func reported(burst int, st CostStatus, now int64) (bucket, bool) {
	if st.Restore <= 0 || math.IsNaN(st.Restore) || math.IsInf(st.Restore, 0) || math.IsNaN(st.Available) {
		return bucket{}, false
	}
	iv := interval(st.Restore)
	avail := math.Max(0, math.Min(st.Available, float64(max(burst, 1))))
	missing := float64(max(burst, 1)) - avail
	return bucket{tat: now + int64(math.Ceil(missing*float64(iv))), iv: iv}, true
}

// ReportCost makes op's shared bucket what the channel states of it after an answer (or a
// refusal for cost): the points available now and the restore rate. The channel's word
// replaces the bucket's level, so a take another instance made meanwhile may be forgotten
// until the next answer states it again. An operation without a limit, a Verify session and
// a status without a rate change nothing.
func (s *Session) ReportCost(ctx context.Context, op string, st CostStatus) error {
	lim, ok := s.limit(op)
	if !ok {
		return nil
	}
	now := s.rt.now().UnixMilli()
	b, ok := reported(lim.Burst, st, now)
	if !ok {
		return nil
	}
	id := bucketID(s.Account, s.Channel, op)
	if err := s.rt.putBucket(ctx, id, b); err != nil {
		return fmt.Errorf("report a bucket's cost status: %w", err)
	}
	s.rt.buckets.Store(id.text(), b)
	return nil
}
