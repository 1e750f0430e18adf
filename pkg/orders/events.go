package orders

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/store"
)

// EventKinds are the item kinds whose changes EventOf reads.
func (Service) EventKinds() []string { return []string{kindOrder, kindRefusal} }

// EventOf is the orders' source of the event feed: a new order is
// order.created, a write that changes what GET /orders/{sb_order_seq}
// returns is order.updated, with the order as that returns it; a refused
// document (RecordRefusal) is order.import_failed, with the Refusal.
func (s Service) EventOf(_ context.Context, c store.Change) (events.Draft, bool, error) {
	if c.Kind == kindRefusal && c.New.Exists() && !c.Old.Exists() {
		var r Refusal
		if err := c.New.Decode(&r); err != nil {
			return events.Draft{}, false, fmt.Errorf("decode refusal: %w", err)
		}
		return events.Draft{Type: events.OrderImportFailed, Data: r}, true, nil
	}
	if c.Kind != kindOrder || !c.New.Exists() {
		return events.Draft{}, false, nil
	}
	next, err := outputOf(c.New)
	if err != nil {
		return events.Draft{}, false, err
	}
	if !c.Old.Exists() {
		return events.Draft{Type: events.OrderCreated, Data: next}, true, nil
	}
	prev, err := outputOf(c.Old)
	if err != nil {
		return events.Draft{}, false, err
	}
	return events.Updated(events.OrderUpdated, prev, next)
}

// outputOf decodes an order image as the API returns it.
func outputOf(img store.Image) (*Order, error) {
	var o Order
	if err := img.Decode(&o); err != nil {
		return nil, fmt.Errorf("decode order: %w", err)
	}
	o.forOutput()
	return &o, nil
}
