package inventory

import (
	"context"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Create stores a new record for each item (at most MaxItems), all or none,
// with its product's fields copied in (one strongly consistent BatchGetItem
// of the products) and the counts of the list and of each warehouse (one
// count item), in one TransactWriteItems: if any record exists the call
// creates nothing and is a conflict naming it. The transaction is retried
// when it loses a race on the count item. A new record has reserved 0, so
// on_hand and available both take the item's quantity. Then the stock
// listener is told about the new records. The caller checks the
// warehouses.
func (s Service) Create(ctx context.Context, account string, items []Item) error {
	ps, err := s.products(ctx, account, items)
	if err != nil {
		return err
	}
	now := isotime.Format(time.Now())
	err = store.Retry(ctx, store.Attempts, store.TransactionConflict, func() error {
		return s.Table.Commit(ctx, createCommit(account, items, now, ps))
	})
	if i, ok := store.FailedWrite(err); ok && i < len(items) {
		return errs.Conflict("Inventory already exists for " + items[i].Record().String())
	}
	if err != nil {
		return fmt.Errorf("create inventory: %w", err)
	}
	records := make([]SKUWarehouse, len(items))
	for i, it := range items {
		records[i] = it.Record()
	}
	s.notify(ctx, account, records)
	return nil
}

// createCommit is the transaction that creates the records of items: their
// puts, in order, then the count updates.
func createCommit(account string, items []Item, now string, ps productsBySKU) []store.Write {
	whs := make([]string, len(items))
	for i, it := range items {
		whs[i] = it.Warehouse
	}
	return append(createWrites(account, items, now, ps), created(whs...).Writes(account)...)
}
