package connectors

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/listings"
)

// keyedID names the bucket of op for one key (a listing) of a channel.
func keyedID(account, channel, op, key string) itemID {
	return itemID{account, channel, []string{"rate", op, key}}
}

// TakeKeyed takes one token of the bucket of op for key alone: a limit the channel holds per
// item rather than per channel (eBay's revisions per listing per day), kept in the table as
// the channel's buckets are, so it holds across every instance. It waits for a token at most
// the runtime's MaxWait, else returns *Throttled (Op "op key") saying when the bucket has one.
// A Verify session shares nothing: it takes nothing.
func (s *Session) TakeKeyed(ctx context.Context, op, key string, lim Limit) error {
	if s.verify {
		return nil
	}
	return s.takeBucket(ctx, op+" "+key, keyedID(s.Account, s.Channel, op, key), lim, 1)
}

// putOff sets aside the quantity messages of the listings the connector put off (a result
// with RetryAt): their Outcomes say when to try again and they get no result. It returns the
// indexes and messages of the others.
func putOff(results []QuantityResult, idx []int, msgs []*listings.QuantityMessage, rep *PushReport) ([]int, []*listings.QuantityMessage) {
	later := map[string]time.Time{}
	for _, r := range results {
		if !r.RetryAt.IsZero() {
			later[r.ChannelSKU] = r.RetryAt
		}
	}
	if len(later) == 0 {
		return idx, msgs
	}
	var keepIdx []int
	var keep []*listings.QuantityMessage
	for j, m := range msgs {
		if at, ok := later[m.ChannelSKU]; ok {
			rep.Outcomes[idx[j]].RetryAt = at
			continue
		}
		keepIdx, keep = append(keepIdx, idx[j]), append(keep, m)
	}
	return keepIdx, keep
}
