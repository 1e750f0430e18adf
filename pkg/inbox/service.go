package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/wire"
)

// Service applies inbox messages to the domains they concern.
type Service struct {
	Orders   orders.Service
	Listings listings.Service
	// Shipments takes the results of tracking posts and their retries.
	Shipments shipments.Service
	// Rejects is the inbox's dead-letter queue (FIFO), where rejected
	// messages are set aside with their reason.
	Rejects queue.Sender
	// Channels records a refused order document on its channel's
	// connection (the channels service).
	Channels ErrorRecorder
}

// ErrorRecorder records a channel's last error on its connection
// (channels.Service.RecordError): channels.ErrNotFound when the channel is
// not a connected channel of the account.
type ErrorRecorder interface {
	RecordError(ctx context.Context, account, uuid, message string, at time.Time) error
}

// SetAside sends the rejected parts of the message id to the dead-letter
// queue, each with its reason (attribute "reason"), logged and counted.
func (s Service) SetAside(ctx context.Context, account, id string, rs []Rejection) error {
	for i, r := range rs {
		logctx.Count(ctx, "InboxRejected", "account_id", account, "reason", r.Reason)
		group := "rejected-" + account
		if account == "" {
			group = "rejected"
		}
		err := s.Rejects.SendMessage(ctx, queue.Message{
			Group: group, Dedup: fmt.Sprintf("%s-%d", id, i), Account: account,
			Attributes: map[string]string{"reason": truncate(r.Reason, 1000)}, Text: r.Text,
		})
		if err != nil {
			return fmt.Errorf("set a rejected message aside: %w", err)
		}
	}
	return nil
}

// truncate shortens s to at most n bytes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// Rejection is a part of a message that can never be applied: the text to
// set aside and why.
type Rejection struct {
	Text   string
	Reason string
}

// Handle applies one parsed message of the account. It returns the parts
// that were rejected (an invalid order document, a result for an unknown
// listing or shipment) and an error only for a failure that a retry may
// cure. A result for a replaced version is stale: it changes nothing and is not a
// rejection either.
func (s Service) Handle(ctx context.Context, account string, m Message) ([]Rejection, error) {
	var err error
	switch m.Type {
	case wire.TypeOrder:
		return s.importOrders(ctx, account, m.Orders)
	case wire.TypeListing:
		err = s.Listings.Report(ctx, account, m.Listing)
	case wire.TypeListingResult:
		err = s.Listings.Confirm(ctx, account, m.Result)
	case listings.TypeRetry:
		err = s.Listings.Resend(ctx, account, m.Retry)
	case wire.TypeShipmentResult:
		err = s.Shipments.Confirm(ctx, account, m.ShipmentResult)
	case shipments.TypeRetry:
		err = s.Shipments.Resend(ctx, account, m.ShipmentRetry)
	default:
		err = errs.Invalid("unknown message type %q", m.Type)
	}
	return reject(ctx, err)
}

// importOrders imports order documents; the invalid ones are rejected.
func (s Service) importOrders(ctx context.Context, account string, docs []json.RawMessage) ([]Rejection, error) {
	results, err := s.Orders.Import(ctx, account, docs)
	if err != nil {
		return nil, err
	}
	var out []Rejection
	created := 0
	for i, r := range results {
		switch r.Result {
		case orders.ResultError:
			out = append(out, Rejection{Text: string(docs[i]), Reason: r.Error})
			if err := s.recordRefusal(ctx, account, r); err != nil {
				return nil, err
			}
		case orders.ResultCreated:
			created++
		}
	}
	if created > 0 {
		logctx.Metric(ctx, "OrdersImported", "Count", float64(created), "account_id", account)
	}
	return out, nil
}

// recordRefusal makes a refused document visible besides the dead-letter
// queue (docs/orders.md, "Refused documents"): on its channel's connection
// (last_error, last_error_at) and as an order.import_failed event. A
// document naming no connected channel of the account has neither: the
// dead-letter queue and the log hold it.
func (s Service) recordRefusal(ctx context.Context, account string, r orders.Result) error {
	now := time.Now()
	msg := fmt.Sprintf("order %q was refused: %s", r.DisplayRef, r.Error)
	err := s.Channels.RecordError(ctx, account, r.ChannelUUID, msg, now)
	if errors.Is(err, channels.ErrNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("record the refusal on the channel: %w", err)
	}
	return s.Orders.RecordRefusal(ctx, account, r.ChannelUUID, r.DisplayRef, r.Error, now)
}

// reject sorts an error of a domain: a client-kind error (invalid, not
// found, ...) rejects the message, push.ErrStale is no error, anything else is a
// failure to retry (a bug or an outage).
func reject(ctx context.Context, err error) ([]Rejection, error) {
	switch {
	case err == nil:
		return nil, nil
	case errors.Is(err, push.ErrStale):
		logctx.From(ctx).Info("stale inbox message: it changes nothing", "error", err.Error())
		return nil, nil
	case errs.KindOf(err).Client():
		return []Rejection{{Reason: err.Error()}}, nil
	}
	return nil, err
}
