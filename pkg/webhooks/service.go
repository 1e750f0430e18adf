package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Poster sends one signed delivery (pkg/webhookhttp's Sender).
type Poster interface {
	Send(ctx context.Context, d webhookhttp.Delivery) webhookhttp.Result
}

// Service is the webhooks domain: the endpoints, the fan-out of new events
// to deliveries, and the delivery function's attempts.
type Service struct {
	Table store.Table
	// Feed is the event feed the deliveries carry.
	Feed events.Service
	// Queue is the delivery queue: one message per attempt due.
	Queue queue.Sender
	// Poster sends deliveries; URLs checks a webhook's URL when it is set.
	Poster Poster
	URLs   URLPolicy
	// Schedule is the wait before each retry (DefaultSchedule when nil).
	Schedule []time.Duration
}

// Create adds a webhook, active unless the input says otherwise, with a new
// secret, which the answer shows (and no other read will).
func (s Service) Create(ctx context.Context, account string, in Input) (Webhook, error) {
	secret, err := webhookhttp.NewSecret()
	if err != nil {
		return Webhook{}, err
	}
	now := isotime.Format(time.Now())
	h := &hook{Webhook: Webhook{ID: store.NewID(), Active: true, CreatedAt: now, UpdatedAt: now}, Key: secret}
	h.apply(in)
	err = createHook(ctx, s.Table, account, h)
	if errors.Is(err, errTooMany) {
		return Webhook{}, errs.Invalid("an account may have at most %d webhooks; delete one first", MaxWebhooks)
	}
	if err != nil {
		return Webhook{}, err
	}
	out := h.Webhook
	out.Secret = secret
	return out, nil
}

// List returns the account's webhooks, oldest first, without secrets.
func (s Service) List(ctx context.Context, account string) ([]Webhook, error) {
	hooks, err := listHooks(ctx, s.Table, account)
	if err != nil {
		return nil, err
	}
	out := make([]Webhook, len(hooks))
	for i, h := range hooks {
		out[i] = h.Webhook
	}
	return out, nil
}

// Get returns one webhook, without its secret.
func (s Service) Get(ctx context.Context, account, id string) (Webhook, error) {
	h, err := s.hook(ctx, account, id)
	if err != nil {
		return Webhook{}, err
	}
	return h.Webhook, nil
}

// hook reads the webhook id; an unknown one is a 404.
func (s Service) hook(ctx context.Context, account, id string) (*hook, error) {
	if !store.ValidID(id) { // not a uuid: a 404 without a read
		return nil, errs.NotFound(NotFoundMessage)
	}
	h, err := getHook(ctx, s.Table, account, id)
	if err != nil {
		return nil, err
	}
	if h == nil {
		return nil, errs.NotFound(NotFoundMessage)
	}
	return h, nil
}

// change reads the webhook, applies edit and saves it on the revision
// read, again when another write came between.
func (s Service) change(ctx context.Context, account, id string, edit func(*hook) error) (*hook, error) {
	var h *hook
	err := store.Retry(ctx, store.Attempts, isRaced, func() (err error) {
		if h, err = s.hook(ctx, account, id); err != nil {
			return err
		}
		if err := edit(h); err != nil {
			return err
		}
		h.UpdatedAt = isotime.Format(time.Now())
		return saveHook(ctx, s.Table, account, h)
	})
	return h, err
}

// isRaced reports whether err is a write that lost a race.
func isRaced(err error) bool { return errors.Is(err, errRaced) }

// Update changes the fields in gives.
func (s Service) Update(ctx context.Context, account, id string, in Input) (Webhook, error) {
	h, err := s.change(ctx, account, id, func(h *hook) error { h.apply(in); return nil })
	if err != nil {
		return Webhook{}, err
	}
	return h.Webhook, nil
}

// RotateSecret gives the webhook a new secret, which the answer shows; the
// old one also signs deliveries for the next 24 hours.
func (s Service) RotateSecret(ctx context.Context, account, id string) (Webhook, error) {
	secret, err := webhookhttp.NewSecret()
	if err != nil {
		return Webhook{}, err
	}
	h, err := s.change(ctx, account, id, func(h *hook) error { h.rotate(secret, time.Now()); return nil })
	if err != nil {
		return Webhook{}, err
	}
	out := h.Webhook
	out.Secret = secret
	return out, nil
}

// Delete removes the webhook; its pending deliveries end as failed.
func (s Service) Delete(ctx context.Context, account, id string) error {
	if !store.ValidID(id) { // not a uuid: a 404 without a read
		return errs.NotFound(NotFoundMessage)
	}
	found, err := removeHook(ctx, s.Table, account, id)
	if err != nil {
		return err
	}
	if !found {
		return errs.NotFound(NotFoundMessage)
	}
	return nil
}

// Deliveries returns a page of the webhook's deliveries, newest first, and
// their number (a bounded count: deliveries expire by TTL, which no count
// could follow; -1 past the bound).
func (s Service) Deliveries(ctx context.Context, account, id string, p paging.Page) (paging.Listing[Delivery], error) {
	if _, err := s.hook(ctx, account, id); err != nil {
		return paging.Listing[Delivery]{}, err
	}
	return listDeliveries(ctx, s.Table, account, id, p)
}

// Ping creates a test delivery (type webhook.ping, not in the feed) to the
// webhook, sent like any other; the answer is the pending delivery.
func (s Service) Ping(ctx context.Context, account, id string) (Delivery, error) {
	h, err := s.hook(ctx, account, id)
	if err != nil {
		return Delivery{}, err
	}
	last, err := s.Feed.Last(ctx, account)
	if err != nil {
		return Delivery{}, err
	}
	now := time.Now()
	d := &delivery{Delivery: Delivery{ID: pingDeliveryID(last), WebhookID: h.ID, EventType: PingType}}
	d.EventID = "evt_ping_" + d.ID[len(d.ID)-16:]
	body, err := eventBody(events.Event{ID: d.EventID, Type: PingType, CreatedAt: isotime.Format(now),
		Data: json.RawMessage(fmt.Sprintf(`{"webhook_id":%q}`, h.ID))})
	if err != nil {
		return Delivery{}, err
	}
	d.Body = string(body)
	d.start(now)
	if _, err := saveDelivery(ctx, s.Table, account, d, now); err != nil {
		return Delivery{}, err
	}
	return d.Delivery, nil
}

// Retry sends a delivery again now, with a new round of the schedule (a
// delivery still pending is a 409, unless it is overdue: its message was
// lost).
func (s Service) Retry(ctx context.Context, account, id, deliveryID string) (Delivery, error) {
	if _, err := s.hook(ctx, account, id); err != nil {
		return Delivery{}, err
	}
	if !validDeliveryID(deliveryID) {
		return Delivery{}, errs.NotFound(DeliveryNotFoundMessage)
	}
	var d *delivery
	err := store.Retry(ctx, store.Attempts, isRaced, func() (err error) {
		if d, err = getDelivery(ctx, s.Table, account, id, deliveryID); err != nil {
			return err
		}
		if d == nil {
			return errs.NotFound(DeliveryNotFoundMessage)
		}
		if d.Status == StatusPending && !d.overdue(time.Now()) {
			return errs.Conflict("The delivery is still pending; retry it once it has succeeded or failed")
		}
		d.Tries = 0
		d.start(time.Now())
		_, err = saveDelivery(ctx, s.Table, account, d, time.Now())
		return err
	})
	if err != nil {
		return Delivery{}, err
	}
	return d.Delivery, nil
}

// start makes the delivery pending and due now, and moves its push, so the
// table's stream sends it to the queue.
func (d *delivery) start(now time.Time) {
	at := isotime.Format(now)
	if d.CreatedAt == "" {
		d.CreatedAt = at
	}
	d.Status, d.NextAttemptAt, d.UpdatedAt = StatusPending, nil, at
	d.Push++
	if d.Attempts == nil {
		d.Attempts = []Attempt{}
	}
}
