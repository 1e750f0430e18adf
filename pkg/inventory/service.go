package inventory

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Service is the inventory domain: records, adjustments and the writes
// other domains commit with their own (Reserve, Ship).
type Service struct {
	Table store.Table
	// SQS and QueueURL are where PUT and PATCH queue adjustments.
	SQS      *sqs.Client
	QueueURL string
	// Stock, if set, is told which records changed after POST creates
	// records and after the consumer applies an adjustment.
	Stock StockListener
}

// Handlers serves the inventory endpoints and consumes the adjustments queue
// over the Service.
type Handlers struct{ Service }

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

// requestItems reads the items of a POST, PUT or PATCH body: the whole body
// validated (400, 413, 422) and every warehouse checked (404) before
// anything is written or queued.
func (h Handlers) requestItems(ctx context.Context, r *api.Request) ([]Item, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	items, err := ParseItems(body)
	if err != nil {
		return nil, err
	}
	if err := checkWarehouses(ctx, h.Table, r.Account.ID, items); err != nil {
		return nil, err
	}
	return items, nil
}

// checkWarehouses answers 404 Warehouse not found unless every item's
// warehouse is one of the account's: one Query for all of them.
func checkWarehouses(ctx context.Context, t store.Table, account string, items []Item) error {
	all, err := warehouses.Service{Table: t}.List(ctx, account)
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
