package inventory

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Service is the inventory domain: records, adjustments and the writes
// other domains commit with their own (Reserve, Ship).
type Service struct {
	Table store.Table
	// Adjustments is the FIFO queue PUT and PATCH queue adjustments on.
	Adjustments queue.Sender
	// Rejects is its dead-letter queue, where the consumer puts a message
	// it can never apply, with the reason.
	Rejects queue.Sender
	// ResendAfter is how long an accepted adjustment may stay queued before
	// the sweep sends it again (DefaultResendAfter when zero).
	ResendAfter time.Duration
	// Stock, if set, is told which records changed after POST creates
	// records and after the consumer applies an adjustment.
	Stock StockListener
}

// notify tells the stock listener about records a request created. The
// records are written already, so a listener error is logged, not returned.
func (s Service) notify(ctx context.Context, account string, records []SKUWarehouse) {
	if s.Stock == nil || len(records) == 0 {
		return
	}
	if err := s.Stock.StockAvailable(ctx, account, records); err != nil {
		logctx.From(ctx).Error("stock listener", "error", err, "records", len(records))
	}
}

// checkWarehouses answers 404 Warehouse not found unless every item's
// warehouse is one of the account's: one Query for all of them.
func (s Service) checkWarehouses(ctx context.Context, account string, items []Item) error {
	all, err := warehouses.Service{Table: s.Table}.List(ctx, account)
	if err != nil {
		return err
	}
	known := make(map[string]bool, len(all))
	for _, w := range all {
		known[w.UUID] = true
	}
	for _, it := range items {
		if !known[it.Warehouse] {
			return errs.NotFound(warehouses.NotFoundMessage)
		}
	}
	return nil
}
