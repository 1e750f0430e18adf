package inventory

import (
	"context"
	"errors"
	"time"

	"github.com/multisell/multisell/pkg/deadline"
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

// QueueRefusedReason is the reason of a request given up because the queue
// did not take it (its PUT or PATCH was answered 503).
const QueueRefusedReason = "the queue was unavailable; nothing was applied"

// NotRecordedReason is the reason of a request whose record could not be
// written in time (its PUT or PATCH was answered 503).
const NotRecordedReason = "the database did not answer in time; nothing was applied"

// Enqueue accepts an adjustment of the account's records by method
// (MethodPut or MethodPatch) and returns its request id; a PATCH none of
// whose records exists is not found, and one with a delta that would make
// its record's on_hand negative now is invalid (checkDeltas). The caller
// has validated the items and checked the warehouses.
//
// Accepted means recorded: the request is written as queued (with its
// items) before it is sent as one message to the FIFO queue, grouped by
// account so an account's adjustments apply in order, with the request id
// as its deduplication id. When the record cannot be written nothing is
// accepted (KindUnavailable; see notRecorded for a write that timed out,
// whose outcome may be unknown: the error then carries the id to look it
// up, and the request ends failed, never queued). When the queue refuses
// the message the request is given up (failed, QueueRefusedReason) unless
// the consumer has started it already; if even that cannot be written the
// outcome is unknown. A request recorded but never delivered (a lost
// message) is sent again by Resend.
func (s Service) Enqueue(ctx context.Context, account, method string, items []Item) (string, error) {
	if method == MethodPatch {
		onHand, err := onHandOf(ctx, s.Table, account, items)
		if err != nil {
			return "", err
		}
		if len(onHand) == 0 {
			return "", errs.NotFound(NotFoundMessage)
		}
		if err := checkDeltas(items, onHand); err != nil {
			return "", err
		}
	}
	adj := Adjustment{RequestID: newRequestID(account), Account: account, Method: method, Items: items}
	if err := putRequest(ctx, s.Table, adj, time.Now()); err != nil {
		return "", s.notRecorded(ctx, adj, err)
	}
	sendErr := s.send(ctx, adj, adj.RequestID)
	if sendErr == nil {
		return adj.RequestID, nil
	}
	// The request's own context may be spent (a queue that hung): give the
	// request up with a little time of its own.
	gctx, cancel := deadline.Detached(ctx, giveUpTimeout)
	defer cancel()
	failed, err := failRequest(gctx, s.Table, account, adj.RequestID, QueueRefusedReason, true)
	switch {
	case err != nil:
		return "", errs.OutcomeUnknown(adj.RequestID, errors.Join(sendErr, err))
	case !failed: // the consumer has it: the message was delivered after all
		return adj.RequestID, nil
	}
	if !errs.Outage(sendErr) {
		return "", sendErr // a bug; the request is given up all the same
	}
	e := errs.Unavailable(sendErr)
	e.RequestID = adj.RequestID // for the log: it is failed, the client need not look
	return "", e
}

// notRecorded is the error of a request whose record could not be written.
// A write that timed out may still land: the request is then abandoned (see
// abandonRequest), so it is never left queued, and the outcome is known
// unless that write fails too.
func (s Service) notRecorded(ctx context.Context, adj Adjustment, err error) error {
	if !errs.TimedOut(err) {
		return err // an outage (KindOf: unavailable) or a bug, and nothing written
	}
	gctx, cancel := deadline.Detached(ctx, giveUpTimeout)
	defer cancel()
	if aerr := abandonRequest(gctx, s.Table, adj.Account, adj.RequestID, NotRecordedReason, time.Now()); aerr != nil {
		return errs.OutcomeUnknown(adj.RequestID, errors.Join(err, aerr))
	}
	return errs.Unavailable(err)
}

// giveUpTimeout bounds the write that gives up a request the queue refused.
const giveUpTimeout = time.Second
