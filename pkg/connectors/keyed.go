package connectors

import "context"

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
