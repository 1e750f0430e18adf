package inventory

import (
	"context"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/deadline"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
)

// consumeMargin is how long before the function's timeout the consumer
// stops waiting on DynamoDB, keeping time to hand back what it has not done.
const consumeMargin = 3 * time.Second

// Consume is the handler of the adjustments queue (an SQS event source with
// ReportBatchItemFailures): the batch's message groups (an account's lanes)
// apply at once, each group's messages in order, and a failed one is
// reported with those of its group after it (queue.FIFOGroups) and made visible again
// within seconds (queue.RetrySoon), so an outage of DynamoDB delays an
// account's adjustments by about its length. Applying is idempotent, so a
// retried message changes nothing twice. A message that can never be
// applied goes to the dead-letter queue with its reason (see reject).
func (h Handlers) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	work, cancel := deadline.Reserve(ctx, consumeMargin)
	defer cancel()
	resp := queue.FIFOGroups(work, ev, func(ctx context.Context, m events.SQSMessage) error {
		return h.consume(ctx, m.MessageId, m.Body)
	})
	if err := h.Adjustments.RetrySoon(ctx, ev, resp); err != nil {
		logctx.From(ctx).Warn("failed adjustments come back after the visibility timeout", "error", err)
	}
	return resp, nil
}

// Sweep is the handler of the scheduled sweep: it sends again the
// adjustments still queued ResendAfter after they were accepted.
func (h Handlers) Sweep(ctx context.Context, _ events.EventBridgeEvent) error {
	ctx, cancel := deadline.Reserve(ctx, consumeMargin)
	defer cancel()
	_, err := h.Resend(ctx, time.Now().Add(-h.resendAfter()))
	return err
}
