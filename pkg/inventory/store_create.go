package inventory

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// createAttempts bounds the retries of a creation that lost a race with
// another transaction on the same records (or their counts).
const createAttempts = 5

// Create stores a new record for each item (at most MaxItems), all or none,
// with its product's fields copied in (one strongly consistent BatchGetItem
// of the products) and the counts of the list and of each warehouse, in one
// TransactWriteItems: if any record exists the call creates nothing and is
// a conflict naming it. A new record has reserved 0, so on_hand and
// available both take the item's quantity. Then the stock listener is told
// about the new records. The caller checks the warehouses.
//
// Only MaxItems records in as many warehouses need more writes than one
// transaction takes (a put and a warehouse count each, and the list's
// count): they are two transactions, and when the second finds a record
// that exists the first one's records are deleted again (see undoCreate).
func (s Service) Create(ctx context.Context, account string, items []Item) error {
	ps, err := s.products(ctx, account, items)
	if err != nil {
		return err
	}
	now := isotime.Format(time.Now())
	parts := [][]Item{items}
	if len(createCommit(account, items, now, nil)) > store.MaxWrites {
		parts = [][]Item{items[:len(items)/2], items[len(items)/2:]}
	}
	for i, part := range parts {
		err := s.createPart(ctx, account, part, now, ps)
		if i > 0 && errs.KindOf(err) == errs.KindConflict {
			s.undoCreate(ctx, account, parts[0], now)
		}
		if err != nil {
			return err
		}
	}
	records := make([]SKUWarehouse, len(items))
	for i, it := range items {
		records[i] = it.Record()
	}
	s.notify(ctx, account, records)
	return nil
}

// createPart creates the records of items in one transaction, retried
// when it loses a race on a count: a conflict names a record that exists.
func (s Service) createPart(ctx context.Context, account string, items []Item, now string, ps productsBySKU) error {
	err := store.Retry(ctx, createAttempts, store.TransactionConflict, func() error {
		return s.Table.Commit(ctx, createCommit(account, items, now, ps))
	})
	if i, ok := store.FailedWrite(err); ok && i < len(items) {
		return errs.Conflict("Inventory already exists for " + items[i].Record().String())
	}
	if err != nil {
		return fmt.Errorf("create inventory: %w", err)
	}
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

// undoCreate deletes the records items that Create made at now, with their
// counts, when the rest of its records could not be made: each on the
// condition that nothing has changed it since (else it stays, and the
// error is logged).
func (s Service) undoCreate(ctx context.Context, account string, items []Item, now string) {
	c := store.Counts{}
	ws := make([]store.Write, 0, len(items))
	for _, it := range items {
		c.Add(allCount, -1)
		c.Add(warehouseCount(it.Warehouse), -1)
		ws = append(ws, store.Delete(key(account, it.SKU, it.Warehouse),
			"#created_by = :post AND #created_at = :now AND #updated_at = :now AND #reserved = :zero AND attribute_not_exists(#last_request)",
			map[string]types.AttributeValue{":post": store.S(createdByPost), ":now": store.S(now), ":zero": store.N(0)}))
	}
	err := store.Retry(ctx, createAttempts, store.TransactionConflict, func() error {
		return s.Table.Commit(ctx, append(ws, c.Writes(account)...))
	})
	if err != nil {
		logctx.From(ctx).Error("undo a partial POST /inventory", "error", err.Error(), "records", len(items))
	}
}
