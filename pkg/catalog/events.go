package catalog

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/store"
)

// EventKinds are the item kinds whose changes EventOf reads.
func (Service) EventKinds() []string { return []string{kindProduct} }

// EventOf is the catalog's source of the event feed: a product or
// variation group created, or written so that what GET /products/{sku}
// shows changes (its derived quantity included), is product.updated, with
// the product as GET /products/{sku} returns it (a group read with its
// children). A deletion is no event (the feed's types have none).
func (s Service) EventOf(ctx context.Context, c store.Change) (events.Draft, bool, error) {
	if c.Kind != kindProduct || !c.New.Exists() {
		return events.Draft{}, false, nil
	}
	var next record
	if err := c.New.Decode(&next); err != nil {
		return events.Draft{}, false, fmt.Errorf("decode product: %w", err)
	}
	if next.isGroup() {
		p, err := s.loadGroup(ctx, c.Account, &next)
		if err != nil {
			return events.Draft{}, false, err
		}
		return events.Draft{Type: events.ProductUpdated, Data: p}, true, nil
	}
	if !c.Old.Exists() {
		return events.Draft{Type: events.ProductUpdated, Data: next.product()}, true, nil
	}
	var prev record
	if err := c.Old.Decode(&prev); err != nil {
		return events.Draft{}, false, fmt.Errorf("decode product: %w", err)
	}
	return events.Updated(events.ProductUpdated, prev.product(), next.product())
}
