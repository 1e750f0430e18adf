package inventory

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
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
	// Warehouses reads the account's warehouses and Catalog the products
	// the records copy (the warehouses and catalog services, wired in
	// pkg/app).
	Warehouses WarehouseReader
	Catalog    ProductReader
}

// WarehouseReader reads the account's warehouses (the warehouses service).
type WarehouseReader interface {
	Get(ctx context.Context, account, uuid string) (warehouses.Warehouse, error)
	List(ctx context.Context, account string) ([]warehouses.Warehouse, error)
	Cached(ctx context.Context, account string, seen []string) ([]warehouses.Warehouse, error)
}

// ProductReader reads the products of SKUs (the catalog service): with
// their versions, to copy, or as the API shows them, to join.
type ProductReader interface {
	Versions(ctx context.Context, account string, skus []string) (map[string]catalog.Versioned, error)
	Lookup(ctx context.Context, account string, skus []string) (map[string]catalog.Product, error)
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
// warehouse is one of the account's: from this process's copy of the list
// (warehouses.Service.Cached), read again (one Query) when it is old or
// lacks one of the items' warehouses, so a warehouse just created anywhere
// is never refused.
func (s Service) checkWarehouses(ctx context.Context, account string, items []Item) error {
	named := make([]string, len(items))
	for i, it := range items {
		named[i] = it.Warehouse
	}
	all, err := s.Warehouses.Cached(ctx, account, named)
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
