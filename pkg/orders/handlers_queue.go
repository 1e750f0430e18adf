package orders

import (
	"context"
	"fmt"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
)

// AccountAttribute is the SQS message attribute naming the account an
// order-import message belongs to (channel connectors set it, and use the
// account as the message group).
const AccountAttribute = "account_id"

// Consume is the order-import function: each SQS message holds one import
// document or a JSON array of them, for the account of its account_id
// attribute. Invalid documents are logged with their error and dropped
// (re-sending them cannot help), and so is a message that is not JSON or
// names no account; a failure of the service fails the message and those
// after it in the batch, so they are retried in order (queue.FIFOBatch).
func (h Handlers) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	return queue.FIFOBatch(ctx, ev, func(ctx context.Context, m events.SQSMessage) error {
		results, err := h.consume(ctx, m)
		for _, r := range results {
			if r.Result == ResultError {
				logctx.From(ctx).Warn("order import rejected", "channel_uuid", r.ChannelUUID, "display_ref", r.DisplayRef, "error", r.Error)
			}
		}
		return err
	}), nil
}

func (h Handlers) consume(ctx context.Context, m events.SQSMessage) ([]Result, error) {
	attr, ok := m.MessageAttributes[AccountAttribute]
	if !ok || attr.StringValue == nil || *attr.StringValue == "" {
		return nil, queue.Drop(fmt.Errorf("order import message without the %s attribute", AccountAttribute))
	}
	docs, err := SplitDocuments([]byte(m.Body))
	if err != nil {
		return nil, queue.Drop(err)
	}
	return h.Import(ctx, *attr.StringValue, docs)
}
