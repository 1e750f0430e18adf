package inventory

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/errs"
)

// Adjustment statuses and per-item results (GET /inventory/adjustments/{id}).
const (
	StatusQueued  = "queued"
	StatusApplied = "applied"

	ResultApplied = "applied"
	ResultCreated = "created"
	ResultSkipped = "skipped_not_found"
)

// statusRetention is how long an applied adjustment's status is kept (the
// status item's ttl), and how long a request id not yet applied is
// reported as queued.
const statusRetention = 30 * 24 * time.Hour

// AdjustmentNotFoundMessage is the 404 of an unknown request id.
const AdjustmentNotFoundMessage = "Adjustment not found"

// Result is what applying one item did and the record's quantities right
// after; the quantities are null for a skipped item.
type Result struct {
	SKU       string `json:"sku" dynamodbav:"sku"`
	Warehouse string `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Result    string `json:"result" dynamodbav:"result"`
	OnHand    *int64 `json:"on_hand" dynamodbav:"on_hand"`
	Reserved  *int64 `json:"reserved" dynamodbav:"reserved"`
	Available *int64 `json:"available" dynamodbav:"available"`
}

// Status is an adjustment request as GET /inventory/adjustments/{id}
// returns it; once applied it is stored at (<acct>#ADJ, request id).
type Status struct {
	RequestID string   `json:"request_id" dynamodbav:"request_id"`
	Status    string   `json:"status" dynamodbav:"status"`
	Items     []Result `json:"items" dynamodbav:"items"`
}

// AdjustmentStatus returns the status of the account's request id: an
// applied request with its per-item results, or a recent request that is
// still queued (with no items yet); anything else is not found.
func (s Service) AdjustmentStatus(ctx context.Context, account, requestID string) (Status, error) {
	id, at, ok := parseRequestID(account, requestID)
	if !ok {
		return Status{}, errs.NotFound(AdjustmentNotFoundMessage)
	}
	st, found, err := getStatus(ctx, s.Table, account, id)
	switch {
	case err != nil:
		return Status{}, err
	case found:
		return st, nil
	case time.Since(at) > statusRetention:
		return Status{}, errs.NotFound(AdjustmentNotFoundMessage)
	}
	return Status{RequestID: id, Status: StatusQueued, Items: []Result{}}, nil
}
