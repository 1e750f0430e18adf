package listings

import (
	"context"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// Stream is the channel-sync function: the table stream's event source
// mapping hands it batches of records (filtered to the item kinds that
// matter, see template.yaml). A failure of one account's work reports that
// account's first record as the batch item failure, so the batch is retried
// from there. Each batch logs its sync lag (SyncLag, an embedded metric):
// how long ago its oldest record was written.
func (h Handlers) Stream(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	if lag, ok := syncLag(ev, time.Now()); ok {
		logctx.Metric(ctx, "SyncLag", "Milliseconds", float64(lag.Milliseconds()), "records", len(ev.Records))
	}
	return store.HandleStream(ctx, ev, "channel sync batch", h.Service.Sync)
}

// syncLag is the time from the oldest record's write to now; false for a
// batch without records.
func syncLag(ev events.DynamoDBEvent, now time.Time) (time.Duration, bool) {
	var oldest time.Time
	for _, r := range ev.Records {
		if at := r.Change.ApproximateCreationDateTime.Time; oldest.IsZero() || at.Before(oldest) {
			oldest = at
		}
	}
	if oldest.IsZero() {
		return 0, false
	}
	return max(now.Sub(oldest), 0), true
}
