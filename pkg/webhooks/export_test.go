package webhooks

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Strand makes the delivery pending, due at due, without sending it to the
// queue: what a crash between a delivery's record and its message leaves.
func Strand(ctx context.Context, t store.Table, account, webhook, id string, due time.Time) error {
	d, err := getDelivery(ctx, t, account, webhook, id)
	if err != nil {
		return err
	}
	at := isotime.Format(due)
	d.Status, d.NextAttemptAt, d.UpdatedAt = StatusPending, &at, at
	_, err = saveDelivery(ctx, t, account, d, time.Now())
	return err
}
