package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/queue"
)

// Handlers serves the webhook endpoints and the delivery function over a
// Service.
type Handlers struct{ Service Service }

// one wraps a webhook as the endpoints answer it.
func one(w Webhook) map[string]Webhook { return map[string]Webhook{"webhook": w} }

// oneDelivery wraps a delivery as the endpoints answer it.
func oneDelivery(d Delivery) map[string]Delivery { return map[string]Delivery{"delivery": d} }

// Create serves POST /webhooks, {"webhook":{"url","events","description"}}:
// 201 with the webhook and its secret.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	in, err := h.input(r, true)
	if err != nil {
		return nil, err
	}
	w, err := h.Service.Create(ctx, r.Account.ID, in)
	if err != nil {
		return nil, err
	}
	return api.Created(one(w)), nil
}

// input reads the body of a create or an update.
func (h Handlers) input(r *api.Request, create bool) (Input, error) {
	body, err := r.Decode()
	if err != nil {
		return Input{}, err
	}
	return ParseInput(body, create, h.Service.URLs)
}

// List serves GET /webhooks: {"webhooks":[...]}, oldest first.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	ws, err := h.Service.List(ctx, r.Account.ID)
	if err != nil {
		return nil, err
	}
	return api.OK(map[string][]Webhook{"webhooks": ws}), nil
}

// Get serves GET /webhooks/{id}.
func (h Handlers) Get(ctx context.Context, r *api.Request) (*api.Response, error) {
	w, err := h.Service.Get(ctx, r.Account.ID, r.PathParam("id"))
	if err != nil {
		return nil, err
	}
	return api.OK(one(w)), nil
}

// Update serves PUT /webhooks/{id}: any of url, events, description and
// active.
func (h Handlers) Update(ctx context.Context, r *api.Request) (*api.Response, error) {
	in, err := h.input(r, false)
	if err != nil {
		return nil, err
	}
	w, err := h.Service.Update(ctx, r.Account.ID, r.PathParam("id"), in)
	if err != nil {
		return nil, err
	}
	return api.OK(one(w)), nil
}

// Delete serves DELETE /webhooks/{id}.
func (h Handlers) Delete(ctx context.Context, r *api.Request) (*api.Response, error) {
	if err := h.Service.Delete(ctx, r.Account.ID, r.PathParam("id")); err != nil {
		return nil, err
	}
	return api.Message("Webhook deleted"), nil
}

// RotateSecret serves POST /webhooks/{id}/rotate_secret: the webhook with
// its new secret.
func (h Handlers) RotateSecret(ctx context.Context, r *api.Request) (*api.Response, error) {
	w, err := h.Service.RotateSecret(ctx, r.Account.ID, r.PathParam("id"))
	if err != nil {
		return nil, err
	}
	return api.OK(one(w)), nil
}

// Ping serves POST /webhooks/{id}/ping: 202 with the test delivery.
func (h Handlers) Ping(ctx context.Context, r *api.Request) (*api.Response, error) {
	d, err := h.Service.Ping(ctx, r.Account.ID, r.PathParam("id"))
	if err != nil {
		return nil, err
	}
	return api.Accepted(oneDelivery(d)), nil
}

// Deliveries serves GET /webhooks/{id}/deliveries: {"deliveries":[...]},
// newest first, a page at a time, with Total-Pages when the bounded count
// reached the end.
func (h Handlers) Deliveries(ctx context.Context, r *api.Request) (*api.Response, error) {
	p, err := api.ParsePage(r)
	if err != nil {
		return nil, err
	}
	ds, err := h.Service.Deliveries(ctx, r.Account.ID, r.PathParam("id"), p)
	if err != nil {
		return nil, err
	}
	return api.Page(r, map[string][]Delivery{"deliveries": ds.Items}, ds.Total, ds.Next, p), nil
}

// Retry serves POST /webhooks/{id}/deliveries/{delivery_id}/retry: 202
// with the delivery, pending again.
func (h Handlers) Retry(ctx context.Context, r *api.Request) (*api.Response, error) {
	d, err := h.Service.Retry(ctx, r.Account.ID, r.PathParam("id"), r.PathParam("delivery_id"))
	if err != nil {
		return nil, err
	}
	return api.Accepted(oneDelivery(d)), nil
}

// Consume is the webhook-delivery function: the delivery queue's messages,
// all at once, so a slow receiver holds up no other. A message it cannot
// read is dropped (logged); one whose handling failed comes back after the
// queue's visibility timeout.
func (h Handlers) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	return queue.Batch(ctx, ev, func(ctx context.Context, m events.SQSMessage) error {
		var msg Message
		if err := queue.Decode(m.Body, &msg); err != nil {
			return queue.Drop(err)
		}
		if msg.Account == "" || msg.Webhook == "" || msg.Delivery == "" {
			return queue.Drop(fmt.Errorf("delivery message without its ids"))
		}
		return h.Service.Deliver(ctx, msg)
	}), nil
}

// Sweep is the webhook-delivery-sweep function (scheduled): it sends again
// the pending deliveries overdue by OverdueAfter, whose messages were lost
// (Service.Resend).
func (h Handlers) Sweep(ctx context.Context, _ events.EventBridgeEvent) error {
	_, err := h.Service.Resend(ctx, time.Now().Add(-OverdueAfter))
	return err
}
