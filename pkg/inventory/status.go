package inventory

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/errs"
)

// Adjustment statuses and per-item results (GET /inventory/adjustments/{id}).
// A request is queued from its acceptance until it is applied, or failed
// with a reason (the queue refused it, or its message could not be read).
// An item is skipped_superseded when a request accepted after it has set
// the record already (a request re-sent late never undoes a newer one), a
// conflict when the record's on_hand was not its if_on_hand, and rejected
// when its on_hand_delta would take on_hand below 0 (or above MaxQuantity);
// these three change nothing.
const (
	StatusQueued  = "queued"
	StatusApplied = "applied"
	StatusFailed  = "failed"

	ResultApplied    = "applied"
	ResultCreated    = "created"
	ResultSkipped    = "skipped_not_found"
	ResultSuperseded = "skipped_superseded"
	ResultConflict   = "conflict"
	ResultRejected   = "rejected"
)

// statusRetention is how long a request's status is kept (the status
// item's ttl).
const statusRetention = 30 * 24 * time.Hour

// AdjustmentNotFoundMessage is the 404 of an unknown request id.
const AdjustmentNotFoundMessage = "Adjustment not found"

// Result is what applying one item did and the record's quantities right
// after; the quantities are null for a skipped item, and the record's
// current ones for a conflict or a rejected item, whose Reason says why.
type Result struct {
	SKU       string `json:"sku" dynamodbav:"sku"`
	Warehouse string `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Result    string `json:"result" dynamodbav:"result"`
	Reason    string `json:"reason,omitempty" dynamodbav:"reason,omitempty"`
	OnHand    *int64 `json:"on_hand" dynamodbav:"on_hand"`
	Reserved  *int64 `json:"reserved" dynamodbav:"reserved"`
	Available *int64 `json:"available" dynamodbav:"available"`
}

// Wrote reports whether the item changed its record (applied or created),
// not skipped as missing or superseded.
func (r Result) Wrote() bool {
	return r.Result == ResultApplied || r.Result == ResultCreated
}

// Status is an adjustment request as GET /inventory/adjustments/{id}
// returns it, stored at (<acct>#ADJ, request id) from its acceptance on:
// queued (no items yet), applied (a result per item), or failed (the
// reason, no items).
type Status struct {
	RequestID string   `json:"request_id" dynamodbav:"request_id"`
	Status    string   `json:"status" dynamodbav:"status"`
	Reason    string   `json:"reason,omitempty" dynamodbav:"reason,omitempty"`
	Items     []Result `json:"items" dynamodbav:"items"`
}

// AdjustmentStatus returns the status of the account's request id; an id
// that is not the account's, or that was never accepted, is not found.
func (s Service) AdjustmentStatus(ctx context.Context, account, requestID string) (Status, error) {
	id, _, ok := parseRequestID(account, requestID)
	if !ok {
		return Status{}, errs.NotFound(AdjustmentNotFoundMessage)
	}
	st, found, err := getStatus(ctx, s.Table, account, id)
	switch {
	case err != nil:
		return Status{}, err
	case !found:
		return Status{}, errs.NotFound(AdjustmentNotFoundMessage)
	}
	if st.Items == nil {
		st.Items = []Result{}
	}
	return st, nil
}
