package inventory

import (
	"context"

	"github.com/multisell/multisell/pkg/errs"
)

// Adjustment methods: PUT creates missing records, PATCH skips them.
const (
	MethodPut   = "PUT"
	MethodPatch = "PATCH"
)

// NotFoundMessage is the 404 of a PATCH none of whose records exist.
const NotFoundMessage = "Inventory not found"

// Adjustment is one PUT or PATCH /inventory call as queued: the body of its
// SQS message. The consumer applies it with Apply.
type Adjustment struct {
	RequestID string `json:"request_id"`
	Account   string `json:"account"`
	Method    string `json:"method"`
	Items     []Item `json:"items"`
}

// Enqueue queues an adjustment of the account's records by method
// (MethodPut or MethodPatch) and returns its request id; a PATCH none of
// whose records exists is not found. The call becomes one message to the
// FIFO queue, grouped by account so an account's adjustments apply in
// order, with the request id as its deduplication id. The caller has
// validated the items and checked the warehouses.
func (s Service) Enqueue(ctx context.Context, account, method string, items []Item) (string, error) {
	if method == MethodPatch {
		found, err := anyExists(ctx, s.Table, account, items)
		if err != nil {
			return "", err
		}
		if !found {
			return "", errs.NotFound(NotFoundMessage)
		}
	}
	adj := Adjustment{RequestID: newRequestID(account), Account: account, Method: method, Items: items}
	if err := s.Adjustments.Send(ctx, adj.Account, adj.RequestID, adj); err != nil {
		return "", err
	}
	return adj.RequestID, nil
}
