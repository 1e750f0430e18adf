package inbox

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/queue"
)

// Handlers serves the channel-inbox function over the Service.
type Handlers struct{ Service }

// Consume is the channel-inbox function: the inbox queue (FIFO, one group
// per account) and the retry queue both feed it. Each message names its
// account in the account_id attribute. A message that can never be applied
// (no account, not JSON, an unknown type, an invalid order document, a
// result for an unknown listing) is set aside in the dead-letter queue with
// its reason; a failure that a retry may cure fails the message and those
// after it, so they come again in order (queue.FIFOBatch).
func (h Handlers) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	return queue.FIFOBatch(ctx, ev, func(ctx context.Context, m events.SQSMessage) error {
		account := ""
		if a, ok := m.MessageAttributes[queue.AccountAttribute]; ok && a.StringValue != nil {
			account = *a.StringValue
		}
		if account == "" {
			return h.SetAside(ctx, "", m.MessageId, []Rejection{{Text: m.Body, Reason: "no account_id message attribute"}})
		}
		msg, err := Parse(m.Body)
		if err != nil {
			return h.SetAside(ctx, account, m.MessageId, []Rejection{{Text: m.Body, Reason: err.Error()}})
		}
		rejected, err := h.Handle(ctx, account, msg)
		if err != nil {
			return err
		}
		for i := range rejected {
			if rejected[i].Text == "" {
				rejected[i].Text = m.Body
			}
		}
		return h.SetAside(ctx, account, m.MessageId, rejected)
	}), nil
}
