package push

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/wire"
)

// Queues are where pushes go: the channel outbox (FIFO), which external
// connectors read, the connector queue (FIFO), which multisell's own
// connectors read, and the retry queue (standard, delayed messages), which
// brings a failed push back to the channel inbox when its time comes.
type Queues struct {
	Outbox, Connectors, Retries queue.Sender
	// Router picks, per channel, the outbox or the connector queue; nil
	// sends every push to the outbox.
	Router Router
	// RetryBase is the wait before the first retry of a failed push
	// (doubled per attempt: Backoff); DefaultRetryBase when zero.
	RetryBase time.Duration
}

// Route is the queue a channel's pushes go to.
type Route int

// The routes of a channel's pushes.
const (
	// ToOutbox is the channel outbox: the channel has no connector of
	// multisell's own (an external connector, the connector sim).
	ToOutbox Route = iota
	// ToConnector is the connector queue: multisell's own connector of
	// the channel's type serves it (docs/connectors.md).
	ToConnector
)

// Router decides the route of one channel's pushes. It is asked once per
// message sent, so an implementation answers from what it holds of the
// channel, or reads it once.
type Router interface {
	Route(ctx context.Context, account, channel string) (Route, error)
}

// Message is an outbox message: it starts with a wire.Header (a domain's
// message embeds it, and so has its PushHeader).
type Message interface {
	PushHeader() wire.Header
}

// Send puts a push on the outbox or the connector queue, as the Router
// says for the channel of body's header, deduplicated by dedup, with the
// account's attribute: on the outbox in the message group group (a
// listing's, an order's: what an external connector orders by), on the
// connector queue in one of the channel's lanes (ChannelGroup).
func (q Queues) Send(ctx context.Context, account, group, dedup string, body Message) error {
	to := q.Outbox
	if q.Router != nil {
		channel := body.PushHeader().ChannelUUID
		r, err := q.Router.Route(ctx, account, channel)
		if err != nil {
			return fmt.Errorf("route the push: %w", err)
		}
		if r == ToConnector {
			to, group = q.Connectors, ChannelGroup(account, channel, group)
		}
	}
	err := to.SendMessage(ctx, queue.Message{Group: group, Dedup: dedup, Account: account, Body: body})
	if err != nil {
		return fmt.Errorf("send to the channel outbox: %w", err)
	}
	return nil
}

// Lanes is how many message groups of the connector queue one channel's
// pushes are spread over (ChannelGroup): the connector-push function's
// batch size, so that one receive can hold a whole batch of one channel
// even where a receive gives one message per group (the local stack's SQS
// emulator; SQS gives a group's messages together).
const Lanes = 10

// ChannelGroup is the connector queue's message group of a push of a
// channel whose outbox group is group (a listing's, an order's): one of the
// channel's Lanes groups, the same for every push of that listing or order,
// so their order is kept. SQS hands out one batch of a group at a time, so a
// channel has at most Lanes batches under way however long its backlog, and
// the other channels' groups are taken meanwhile; a channel out of budget
// hides its batches until its limits allow the next call (docs/connectors.md,
// "Pushes and fairness").
func ChannelGroup(account, channel, group string) string {
	h := fnv.New32a()
	h.Write([]byte(group))
	return queue.Group("lane", account, channel, strconv.Itoa(int(h.Sum32()%Lanes)))
}

// Schedule sends body, the retry of a push that failed attempts times, to
// the retry queue, delayed by Backoff.
func (q Queues) Schedule(ctx context.Context, account string, attempts int64, body any) error {
	return q.Later(ctx, account, Backoff(q.RetryBase, attempts), body)
}

// Later sends body to the retry queue, to come back to the channel inbox
// after delay (rounded up to the second, SQS's unit; at most
// queue.MaxDelay): a retry, or the end of a hold (docs/channel-sync.md).
func (q Queues) Later(ctx context.Context, account string, delay time.Duration, body any) error {
	delay = (delay + time.Second - 1).Truncate(time.Second)
	err := q.Retries.SendMessage(ctx, queue.Message{Delay: delay, Account: account, Body: body})
	if err != nil {
		return fmt.Errorf("schedule a retry: %w", err)
	}
	return nil
}
