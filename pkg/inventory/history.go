package inventory

import (
	"context"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/sku"
)

// historyRetention is how long a change stays in a record's history (the
// history item's ttl): more than a year.
const historyRetention = 400 * 24 * time.Hour

// Change is one adjustment applied to a record, as GET /inventory/history
// returns it: on_hand before and after (Delta is their difference, however
// the item was given: on_hand, available or on_hand_delta), the item's
// reason and reference, its request and when it was applied.
type Change struct {
	RequestID string  `json:"request_id" dynamodbav:"request_id"`
	SKU       string  `json:"sku" dynamodbav:"sku"`
	Warehouse string  `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Before    int64   `json:"before" dynamodbav:"before"`
	After     int64   `json:"after" dynamodbav:"after"`
	Delta     int64   `json:"delta" dynamodbav:"delta"`
	Reason    *string `json:"reason" dynamodbav:"reason"`
	Reference *string `json:"reference" dynamodbav:"reference"`
	At        string  `json:"at" dynamodbav:"at"`
}

// changeOf is the change the record's stamp describes; ok is false when no
// adjustment has stamped it.
func changeOf(rec Record) (c Change, ok bool) {
	if rec.ChgReq == "" {
		return c, false
	}
	return Change{
		RequestID: rec.ChgReq, SKU: rec.SKU, Warehouse: rec.Warehouse,
		Before: rec.ChgBefore, After: rec.ChgAfter, Delta: rec.ChgAfter - rec.ChgBefore,
		Reason: rec.ChgReason, Reference: rec.ChgReference, At: rec.ChgAt,
	}, true
}

// NewHistoryFilter validates the record GET /inventory/history names: sku
// (a valid SKU) and warehouse_uuid, both required (422 naming the
// parameter).
func NewHistoryFilter(skuText, warehouse string) (SKUWarehouse, error) {
	if skuText == "" {
		return SKUWarehouse{}, errs.Invalid("sku is required")
	}
	if err := sku.Check("sku", skuText); err != nil {
		return SKUWarehouse{}, err
	}
	if warehouse = strings.TrimSpace(warehouse); warehouse == "" {
		return SKUWarehouse{}, errs.Invalid("warehouse_uuid is required")
	}
	return SKUWarehouse{SKU: skuText, Warehouse: warehouse}, nil
}

// History returns a page of the changes of the account's record r, newest
// first (in the order their requests were accepted), with a bounded count:
// one Query from where the page starts (store.Table.Page). A record with no
// history is an empty list; an unknown warehouse, or no record of the SKU in
// it, is not found (read only when the page is empty).
func (s Service) History(ctx context.Context, account string, r SKUWarehouse, p paging.Page) (paging.Listing[Change], error) {
	out, total, next, err := historyPage(ctx, s.Table, account, r, p)
	if err != nil {
		return paging.Listing[Change]{}, err
	}
	if len(out) == 0 {
		if _, err := s.Warehouses.Get(ctx, account, r.Warehouse); err != nil {
			return paging.Listing[Change]{}, err
		}
		recs, err := getRecords(ctx, s.Table, account, []SKUWarehouse{r})
		if err != nil {
			return paging.Listing[Change]{}, err
		}
		if len(recs) == 0 {
			return paging.Listing[Change]{}, errs.NotFound(NotFoundMessage)
		}
	}
	return paging.Listing[Change]{Items: out, Total: total, Next: next}, nil
}
