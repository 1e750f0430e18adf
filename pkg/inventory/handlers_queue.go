package inventory

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/queue"
)

// Consume is the handler of the adjustments queue (an SQS event source with
// ReportBatchItemFailures): messages apply in order, and a failed one is
// retried with those after it and ends in the dead-letter queue if it keeps
// failing (queue.FIFOBatch). Applying is idempotent, so a retried message
// changes nothing twice.
func (h Handlers) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	return queue.FIFOBatch(ctx, ev, func(ctx context.Context, m events.SQSMessage) error {
		return h.consume(ctx, m.Body)
	}), nil
}
