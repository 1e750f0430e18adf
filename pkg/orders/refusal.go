package orders

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/redact"
)

// Refusal is an order document the import refused, as the order.import_failed
// event carries it (docs/orders.md, "Refused documents"): the channel, the
// order's reference on it, why (cleaned with redact.Text, as every word a
// channel sends is) and when.
type Refusal struct {
	ChannelUUID string `json:"channel_uuid" dynamodbav:"channel_uuid"`
	DisplayRef  string `json:"display_ref" dynamodbav:"display_ref"`
	Reason      string `json:"reason" dynamodbav:"reason"`
	RefusedAt   string `json:"refused_at" dynamodbav:"refused_at"`
}

// RecordRefusal records that the import refused the document of the
// channel's order displayRef for reason, at at: one PutItem of a short-lived
// item, which the event feed makes an order.import_failed event.
func (s Service) RecordRefusal(ctx context.Context, account, channel, displayRef, reason string, at time.Time) error {
	r := Refusal{ChannelUUID: channel, DisplayRef: redact.Text(displayRef), Reason: redact.Text(reason), RefusedAt: isotime.Format(at)}
	return putRefusal(ctx, s.Table, account, r, at)
}
