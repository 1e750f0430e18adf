package inventory

import (
	"context"

	"github.com/multisell/multisell/pkg/store"
)

// NewRequestID lets the integration tests (package inventory_test) craft
// queue messages as PUT and PATCH do.
var NewRequestID = newRequestID

// Key lets the fault tests reach a record's item directly to corrupt it.
var Key = key

// Record writes an accepted request's record without sending it: a request
// whose message was lost.
var RecordRequest = putRequest

// GiveUp is what PUT does when the queue refuses the message; Claim is the
// consumer's first write.
func GiveUp(ctx context.Context, t store.Table, account, id string) (bool, error) {
	return failRequest(ctx, t, account, id, QueueRefusedReason, true)
}

// Claim is the consumer's first write of a request.
var Claim = claim
