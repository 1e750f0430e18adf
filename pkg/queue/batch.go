package queue

import (
	"context"
	"errors"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// errDrop marks a message that can never succeed and is deleted, not
// retried.
var errDrop = errors.New("message dropped")

// Drop wraps err to say that its message can never succeed: FIFOBatch logs
// and deletes it instead of retrying it.
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
		log := logctx.From(ctx).With("message_id", m.MessageId)
		mctx, meter := store.EnsureMeter(logctx.With(ctx, log))
		err := handle(mctx, m)
		log.Info("message", "ok", err == nil, "ddb_calls", meter.Calls(), "ddb_wcu", meter.WriteUnits())
		switch {
		case err == nil:
		case errors.Is(err, errDrop):
			log.Warn("message dropped", "error", err)
		default:
			log.Error("message failed", "error", err)
			for _, rest := range ev.Records[i:] {
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rest.MessageId})
			}
			return resp
		}
	}
	return resp
}
