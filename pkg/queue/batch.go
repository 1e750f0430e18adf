package queue

import (
	"context"
	"errors"
	"sync"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// errDrop marks a message that can never succeed and is deleted, not
// retried.
var errDrop = errors.New("message dropped")

// Drop wraps err to say that its message can never succeed: FIFOBatch and
// Batch log and count it (MessageDropped) and delete it instead of
// retrying it.
func Drop(err error) error { return errors.Join(errDrop, err) }

// FIFOBatch handles the messages of one FIFO event in order. When a message
// fails, it and every message after it are reported as batch item
// failures, so SQS delivers them again in the same order and, after the
// queue's maxReceiveCount, moves a message that keeps failing to the
// dead-letter queue; a message whose error is wrapped by Drop is logged and
// deleted. Each message is logged with its id and its DynamoDB cost.
func FIFOBatch(ctx context.Context, ev events.SQSEvent, handle func(context.Context, events.SQSMessage) error) events.SQSEventResponse {
	var resp events.SQSEventResponse
	for i, m := range ev.Records {
		if !handleOne(ctx, m, handle) {
			for _, rest := range ev.Records[i:] {
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rest.MessageId})
			}
			return resp
		}
	}
	return resp
}

// FIFOGroups is FIFOBatch per message group: the event's groups are handled
// at once, each in order, and a failure fails the rest of its own group only.
// On SQS a batch may hold several groups (always, on the local emulator, one
// message per group); a consumer whose messages of different groups are
// independent then applies them side by side instead of one after another.
func FIFOGroups(ctx context.Context, ev events.SQSEvent, handle func(context.Context, events.SQSMessage) error) events.SQSEventResponse {
	var groups []events.SQSEvent
	at := map[string]int{}
	for _, m := range ev.Records {
		g := m.Attributes["MessageGroupId"]
		i, ok := at[g]
		if !ok {
			i, at[g] = len(groups), len(groups)
			groups = append(groups, events.SQSEvent{})
		}
		groups[i].Records = append(groups[i].Records, m)
	}
	resps := make([]events.SQSEventResponse, len(groups))
	var wg sync.WaitGroup
	for i, g := range groups {
		wg.Go(func() { resps[i] = FIFOBatch(ctx, g, handle) })
	}
	wg.Wait()
	var resp events.SQSEventResponse
	for _, r := range resps {
		resp.BatchItemFailures = append(resp.BatchItemFailures, r.BatchItemFailures...)
	}
	return resp
}

// Batch handles the messages of a standard queue's event all at once, so a
// slow message holds up no other; each message that fails is reported as a
// batch item failure on its own (delivered again after its visibility
// timeout), a message whose error is wrapped by Drop is logged and deleted.
func Batch(ctx context.Context, ev events.SQSEvent, handle func(context.Context, events.SQSMessage) error) events.SQSEventResponse {
	var (
		resp events.SQSEventResponse
		mu   sync.Mutex
		wg   sync.WaitGroup
	)
	for _, m := range ev.Records {
		wg.Go(func() {
			if handleOne(ctx, m, handle) {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
		})
	}
	wg.Wait()
	return resp
}

// handleOne handles one message with its own logger and DynamoDB meter and
// reports whether it is done with (handled, or dropped).
func handleOne(ctx context.Context, m events.SQSMessage, handle func(context.Context, events.SQSMessage) error) bool {
	log := logctx.From(ctx).With("message_id", m.MessageId)
	mctx, meter := store.EnsureMeter(logctx.With(ctx, log))
	err := handle(mctx, m)
	log.Info("message", "ok", err == nil, "ddb_calls", meter.Calls(), "ddb_wcu", meter.WriteUnits())
	switch {
	case err == nil:
		return true
	case errors.Is(err, errDrop):
		logctx.Count(mctx, "MessageDropped", "error", err.Error()) // a log line and an EMF count
		return true
	}
	log.Error("message failed", "error", err)
	return false
}
