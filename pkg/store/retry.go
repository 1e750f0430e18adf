package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/multisell/multisell/pkg/logctx"
)

// ErrRaced marks a read-modify-write whose conditional write lost to
// another write of the item between its read and its write: read again
// and retry (Retry with Raced). Domains wrap it with what raced.
var ErrRaced = errors.New("changed meanwhile")

// Raced reports whether err is (or wraps) ErrRaced.
func Raced(err error) bool { return errors.Is(err, ErrRaced) }

// The attempt limits of Retry, named once. Each is how many writers may race for
// one item at once: past it, a loop that keeps losing is a fault (a livelock, a
// hot item), reported rather than retried for ever; the waits between attempts
// (retryWait) stay under 100 ms, so even the largest limit gives up within seconds.
const (
	// Attempts is the limit of a read-modify-write of one item that only the
	// account's own requests write at once (a product, a listing, a webhook, the
	// count item a creation or deletion updates in its transaction); after it
	// the caller gets a 409.
	Attempts = 10
	// BusyAttempts is the limit for an order and its shipments: besides the
	// account's requests, the order import, the stock reservations of every
	// inventory change and the shipments' channel pushes all write the order.
	BusyAttempts = 25
	// FeedAttempts is the limit of the commit that numbers an account's events:
	// the account's single counter is written by the events function for every
	// change of the account, from every shard of the table's stream at once.
	FeedAttempts = 50
)

// The retry schedule: the wait before the second attempt is about
// retryFirst, doubling per attempt up to retryMost.
const (
	retryFirst = 5 * time.Millisecond
	retryMost  = 100 * time.Millisecond
)

// Retry runs op until it returns an error retryable does not accept (or
// none), at most attempts times: the loop of a read-modify-write whose
// conditional write lost a race (retryable: Raced, TransactionConflict, or
// a domain's own test). Between attempts it waits a backoff with jitter
// (retryWait), or returns ctx's error when ctx ends first. After the last
// attempt it returns the last error, wrapped.
func Retry(ctx context.Context, attempts int, retryable func(error) bool, op func() error) error {
	var err error
	for i := 1; i <= attempts; i++ {
		if err = op(); err == nil || !retryable(err) {
			return err
		}
		if i == attempts {
			break
		}
		logctx.From(ctx).Debug("write raced, retrying", "attempt", i, "error", err.Error())
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retryWait(i)):
		}
	}
	return fmt.Errorf("gave up after %d attempts: %w", attempts, err)
}

// retryWait is the wait after the failed attempt n (from 1): a random time
// between half and all of retryFirst doubled n-1 times, at most retryMost,
// so writers that raced each other spread out.
func retryWait(n int) time.Duration {
	d := retryMost
	if n < 8 {
		d = min(retryFirst<<(n-1), retryMost)
	}
	return d/2 + rand.N(d/2+1)
}
