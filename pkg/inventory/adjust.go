package inventory

import (
	"context"
	"fmt"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
)

// Adjustment methods: PUT creates missing records, PATCH skips them.
const (
	MethodPut   = http.MethodPut
	MethodPatch = http.MethodPatch
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

// Adjust serves PUT and PATCH /inventory: the whole body is validated (422)
// and the warehouses checked (404) before anything is queued; a PATCH none of
// whose records exists is 404 Inventory not found. The call becomes one
// message to the FIFO queue, grouped by account so an account's adjustments
// apply in order, and the answer carries its request id.
func (h Handlers) Adjust(ctx context.Context, r *api.Request) (*api.Response, error) {
	items, err := h.requestItems(ctx, r)
	if err != nil {
		return nil, err
	}
	adj := Adjustment{RequestID: newRequestID(r.Account.ID), Account: r.Account.ID, Method: MethodPut, Items: items}
	if r.HTTPMethod == http.MethodPatch {
		adj.Method = MethodPatch
		found, err := anyExists(ctx, h.Table, r.Account.ID, items)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, errs.NotFound(NotFoundMessage)
		}
	}
	if err := h.enqueue(ctx, adj); err != nil {
		return nil, err
	}
	return api.OK(map[string]string{"body": "Request received", "request_id": adj.RequestID}), nil
}

// enqueue sends adj as one message of the account's group; the request id
// is the deduplication id.
func (s Service) enqueue(ctx context.Context, adj Adjustment) error {
	return queue.SendFIFO(ctx, s.SQS, s.QueueURL, adj.Account, adj.RequestID, adj)
}

// anyExists reports whether any item's record exists: one BatchGetItem.
func anyExists(ctx context.Context, t store.Table, account string, items []Item) (bool, error) {
	keys := make([]map[string]types.AttributeValue, len(items))
	for i, it := range items {
		keys[i] = Key(account, it.SKU, it.Warehouse)
	}
	found, err := t.BatchGet(ctx, keys, false)
	if err != nil {
		return false, fmt.Errorf("look up inventory records: %w", err)
	}
	return len(found) > 0, nil
}
