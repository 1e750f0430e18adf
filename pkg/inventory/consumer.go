package inventory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/sku"
)

// consume applies one message and tells the stock listener which records
// changed, while the status is stored (apply). A listener error fails the
// message: the retry applies nothing again (the stored status answers it)
// but tells the listener once more.
func (s Service) consume(ctx context.Context, messageID, body string) error {
	adj, err := decodeAdjustment(body)
	if err != nil {
		return s.reject(ctx, messageID, body, adj, err)
	}
	_, err = s.apply(ctx, adj, s.tell)
	return err
}

// tell tells the stock listener about the results of adj (those that
// wrote their records).
func (s Service) tell(ctx context.Context, adj Adjustment, results []Result) error {
	var changed []SKUWarehouse
	for _, r := range results {
		if r.Wrote() {
			changed = append(changed, SKUWarehouse{SKU: r.SKU, Warehouse: r.Warehouse})
		}
	}
	if len(changed) > 0 { // not a redelivery of a message already applied
		logctx.Metric(ctx, "AdjustmentsApplied", "Count", 1, "account_id", adj.Account, "request_id", adj.RequestID, "records", len(changed))
	}
	if s.Stock == nil || len(changed) == 0 {
		return nil
	}
	if err := tellAdjusted(ctx, s.Stock, adj.Account, results, changed); err != nil {
		return fmt.Errorf("stock listener after %s: %w", adj.RequestID, err)
	}
	return nil
}

// maxReason is the most of an error's text a rejection keeps as its reason.
const maxReason = 500

// reject puts a message that can never be applied on the dead-letter queue
// with the reason (message attribute "reason"), marks its request failed
// with it when the message names one of its account's requests, and drops
// the message (queue.Drop: logged, counted, deleted). If the dead-letter
// queue does not take it, the message fails and comes back.
func (s Service) reject(ctx context.Context, messageID, body string, adj Adjustment, cause error) error {
	reason := reasonOf(cause)
	err := s.Rejects.SendMessage(ctx, queue.Message{
		Group: "rejected", Dedup: messageID, Text: body, Attributes: map[string]string{"reason": reason},
	})
	if err != nil {
		return fmt.Errorf("reject message %s (%w): %w", messageID, cause, err)
	}
	if _, _, ok := parseRequestID(adj.Account, adj.RequestID); ok {
		if _, err := failRequest(ctx, s.Table, adj.Account, adj.RequestID, "rejected: "+reason, false); err != nil {
			logctx.From(ctx).Error("mark a rejected adjustment failed", "request_id", adj.RequestID, "error", err)
		}
	}
	return queue.Drop(fmt.Errorf("rejected to the dead-letter queue: %w", cause))
}

// reasonOf is the reason a rejection gives: the error's text, at most
// maxReason bytes, never cut inside a character (SQS refuses invalid text).
func reasonOf(err error) string {
	reason := err.Error()
	if len(reason) > maxReason {
		reason = strings.ToValidUTF8(reason[:maxReason], "")
	}
	return reason
}

// decodeAdjustment reads and checks a message body.
func decodeAdjustment(body string) (Adjustment, error) {
	var adj Adjustment
	if err := queue.Decode(body, &adj); err != nil {
		return adj, fmt.Errorf("adjustment: %w", err)
	}
	if err := adj.validate(); err != nil {
		return adj, fmt.Errorf("adjustment %q: %w", adj.RequestID, err)
	}
	return adj, nil
}

// clearable are the attributes an item may clear.
var clearable = []string{attrCost, attrBinLocation, attrDescription}

// validate checks a decoded message before anything is applied, so a
// malformed one fails as a whole (and ends in the dead-letter queue).
func (adj Adjustment) validate() error {
	if _, _, ok := parseRequestID(adj.Account, adj.RequestID); !ok {
		return errors.New("request id does not belong to the account")
	}
	if adj.Method != MethodPut && adj.Method != MethodPatch {
		return fmt.Errorf("method %q is not PUT or PATCH", adj.Method)
	}
	if len(adj.Items) == 0 {
		return errors.New("no items")
	}
	for i, it := range adj.Items {
		if !sku.Valid(it.SKU) || it.Warehouse == "" || count(it.OnHand, it.Available, it.OnHandDelta) != 1 {
			return fmt.Errorf("item %d: needs a sku, a warehouse and one quantity", i)
		}
		if it.OnHandDelta != nil && adj.Method != MethodPatch {
			return fmt.Errorf("item %d: on_hand_delta is for PATCH only", i)
		}
		for _, c := range it.Clear {
			if !slices.Contains(clearable, c) {
				return fmt.Errorf("item %d: cannot clear %q", i, c)
			}
		}
	}
	return nil
}
