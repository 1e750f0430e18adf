package push

import (
	"context"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/queue"
)

// Queues are where pushes go: the channel outbox (FIFO), which connectors
// read, and the retry queue (standard, delayed messages), which brings a
// failed push back to the channel inbox when its time comes.
type Queues struct {
	Outbox, Retries queue.Sender
	// RetryBase is the wait before the first retry of a failed push
	// (doubled per attempt: Backoff); DefaultRetryBase when zero.
	RetryBase time.Duration
}

// Send puts a push on the outbox: body in the message group, deduplicated
// by dedup, with the account's attribute.
func (q Queues) Send(ctx context.Context, account, group, dedup string, body any) error {
	err := q.Outbox.SendMessage(ctx, queue.Message{Group: group, Dedup: dedup, Account: account, Body: body})
	if err != nil {
		return fmt.Errorf("send to the channel outbox: %w", err)
	}
	return nil
}

// Schedule sends body, the retry of a push that failed attempts times, to
// the retry queue, delayed by Backoff.
func (q Queues) Schedule(ctx context.Context, account string, attempts int64, body any) error {
	err := q.Retries.SendMessage(ctx, queue.Message{Delay: Backoff(q.RetryBase, attempts), Account: account, Body: body})
	if err != nil {
		return fmt.Errorf("schedule a retry: %w", err)
	}
	return nil
}
