package inventory

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// ExistsError is returned by Create when a record exists already.
type ExistsError struct{ Record SKUWarehouse }

// Error implements the error interface.
func (e *ExistsError) Error() string { return "inventory exists for " + e.Record.String() }

// createAttempts bounds the retries of a creation that lost a race with
// another transaction on the same records.
const createAttempts = 3

// Create stores a new record for each item (at most 100), all or none, in
// one TransactWriteItems: if any record exists the call creates nothing and
// returns an *ExistsError naming it. A new record has reserved 0, so on_hand
// and available both take the item's quantity. The caller checks the
// warehouses.
func (s Service) Create(ctx context.Context, account string, items []Item) error {
	t := s.Table
	now := isotime.Format(time.Now())
	writes := make([]types.TransactWriteItem, len(items))
	for i, it := range items {
		writes[i] = types.TransactWriteItem{Put: &types.Put{
			TableName:                t.TableName(),
			Item:                     newRecord(account, it, now),
			ConditionExpression:      aws.String("attribute_not_exists(#PK)"),
			ExpressionAttributeNames: store.Names("#PK"),
		}}
	}
	var err error
	for range createAttempts {
		_, err = t.DB.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: writes})
		if !store.TransactionConflict(err) {
			break
		}
	}
	for i, reason := range store.CancellationReasons(err) {
		if reason == "ConditionalCheckFailed" {
			return &ExistsError{Record: items[i].Record()}
		}
	}
	if err != nil {
		return fmt.Errorf("create inventory: %w", err)
	}
	return nil
}

// newRecord is the stored item of a record created from it at now.
func newRecord(account string, it Item, now string) map[string]types.AttributeValue {
	qty := it.OnHand
	if qty == nil {
		qty = it.Available
	}
	item := Key(account, it.SKU, it.Warehouse)
	for k, v := range indexKeys(account, it.SKU, it.Warehouse, now) {
		item[k] = v
	}
	item[attrSKU] = store.S(it.SKU)
	item[attrWarehouse] = store.S(it.Warehouse)
	item[attrOnHand] = n(*qty)
	item[attrReserved] = n(0)
	item[attrAvailable] = n(*qty)
	item[attrCreatedAt] = store.S(now)
	item[attrUpdatedAt] = store.S(now)
	item[attrCreatedBy] = store.S(createdByPost)
	if it.Cost != nil {
		item[attrCost] = number(*it.Cost)
	}
	if it.BinLocation != nil {
		item[attrBinLocation] = store.S(*it.BinLocation)
	}
	if it.Description != nil {
		item[attrDescription] = store.S(*it.Description)
	}
	return item
}

// Create serves POST /inventory: it validates the whole body (422), checks
// the warehouses (404 Warehouse not found), creates every record or none
// (409 if one exists), tells the stock listener, and answers 201.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	items, err := h.requestItems(ctx, r)
	if err != nil {
		return nil, err
	}
	var exists *ExistsError
	if err := h.Service.Create(ctx, r.Account.ID, items); errors.As(err, &exists) {
		return nil, errs.Conflict("Inventory already exists for " + exists.Record.String())
	} else if err != nil {
		return nil, err
	}
	records := make([]SKUWarehouse, len(items))
	for i, it := range items {
		records[i] = it.Record()
	}
	h.notify(ctx, r.Account.ID, records)
	return api.Created(map[string]string{"body": "Inventory created"}), nil
}
