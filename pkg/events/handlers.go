package events

import (
	"context"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/store"
)

// Handlers serves GET /v1/events and the events function over a Service.
type Handlers struct{ Service Service }

// List serves GET /v1/events: after, limit and type; one strongly
// consistent Query (plus one BatchGetItem with type).
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	limit, err := api.ParseLimit(r)
	if err != nil {
		return nil, err
	}
	q, err := ParseQuery(func(name string) (string, bool) { return r.Query(name), r.HasQuery(name) }, limit)
	if err != nil {
		return nil, err
	}
	page, err := h.Service.List(ctx, r.Account.ID, q)
	if err != nil {
		return nil, err
	}
	return api.OK(page), nil
}

// Stream is the events function: the table stream's event source mapping
// hands it batches of records of the item kinds that make events, and of
// the feed's and the webhooks' own (template.yaml). A failure reports the
// earliest failed record as the batch item failure, so the batch is retried
// from there.
func (h Handlers) Stream(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	return store.HandleStream(ctx, ev, "events batch", h.Service.Handle)
}
