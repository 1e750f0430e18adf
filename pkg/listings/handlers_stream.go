package listings

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/store"
)

// Stream is the channel-sync function: the table stream's event source
// mapping hands it batches of records (filtered to the item kinds that
// matter, see template.yaml). A failure of one account's work reports that
// account's first record as the batch item failure, so the batch is retried
// from there.
func (h Handlers) Stream(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	return store.HandleStream(ctx, ev, "channel sync batch", h.Service.Sync)
}
