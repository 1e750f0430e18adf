package inventory

import (
	"context"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// createAttempts bounds the retries of a creation that lost a race with
// another transaction on the same records.
const createAttempts = 3

// Create stores a new record for each item (at most 100), all or none, in
// one commit (a single PutItem for one item, else one TransactWriteItems):
// if any record exists the call creates nothing and is a conflict naming
// it. A new record has reserved 0, so on_hand and available both take the
// item's quantity. Then the stock listener is told about the new records.
// The caller checks the warehouses.
func (s Service) Create(ctx context.Context, account string, items []Item) error {
	writes := createWrites(account, items, isotime.Format(time.Now()))
	var err error
	for range createAttempts {
		if err = s.Table.Commit(ctx, writes); !store.TransactionConflict(err) {
			break
		}
	}
	if i, ok := store.FailedWrite(err); ok {
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
