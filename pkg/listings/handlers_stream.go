package listings

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// Stream is the channel-sync function: the table stream's event source
// mapping hands it batches of records (filtered to the item kinds that
// matter, see template.yaml). A failure of one account's work reports that
// account's first record as the batch item failure, so the batch is retried
// from there; a batch it cannot even decode fails whole (the mapping bisects
// it down to the bad record, which ends in the failure queue).
func (h Handlers) Stream(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	ctx, meter := store.EnsureMeter(ctx)
	changes, err := store.Changes(ev.Records)
	if err != nil {
		return events.DynamoDBEventResponse{}, err
	}
	failed, err := h.Service.Sync(ctx, changes)
	if err != nil {
		return events.DynamoDBEventResponse{}, err
	}
	logctx.From(ctx).Info("channel sync batch", "records", len(changes), "failed_from", failed,
		"ddb_calls", meter.Calls(), "ddb_rcu", meter.ReadUnits(), "ddb_wcu", meter.WriteUnits())
	var resp events.DynamoDBEventResponse
	if failed != "" {
		resp.BatchItemFailures = []events.DynamoDBBatchItemFailure{{ItemIdentifier: failed}}
	}
	return resp, nil
}
