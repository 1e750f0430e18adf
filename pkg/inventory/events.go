package inventory

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/store"
)

// EventKinds are the item kinds whose changes EventOf reads.
func (Service) EventKinds() []string { return []string{kindRecord, kindStatus} }

// EventOf is the inventory's source of the event feed: a stock record
// written so that what GET /inventory shows of it changes is
// inventory.updated, with the record as GET /inventory returns it (joined
// with its product: one read) and the adjustment that changed it, if one
// did (UpdatedEvent); an adjustment request's status becoming
// applied is inventory_adjustment.applied, with the status as GET
// /inventory/adjustments/{request_id} returns it.
func (s Service) EventOf(ctx context.Context, c store.Change) (events.Draft, bool, error) {
	if !c.New.Exists() {
		return events.Draft{}, false, nil
	}
	switch c.Kind {
	case kindRecord:
		return s.recordEvent(ctx, c)
	case kindStatus:
		var st Status
		if err := c.New.Decode(&st); err != nil {
			return events.Draft{}, false, fmt.Errorf("decode adjustment status: %w", err)
		}
		if st.Status != StatusApplied || c.Old.Text("status") == StatusApplied {
			return events.Draft{}, false, nil
		}
		return events.Draft{Type: events.AdjustmentApplied, Data: st}, true, nil
	}
	return events.Draft{}, false, nil
}

// recordEvent is the event of a change of a stock record.
func (s Service) recordEvent(ctx context.Context, c store.Change) (events.Draft, bool, error) {
	var next, prev Record
	if err := c.New.Decode(&next); err != nil {
		return events.Draft{}, false, fmt.Errorf("decode inventory record: %w", err)
	}
	if c.Old.Exists() {
		if err := c.Old.Decode(&prev); err != nil {
			return events.Draft{}, false, fmt.Errorf("decode inventory record: %w", err)
		}
		if _, changed, err := events.Updated(events.InventoryUpdated, view(prev, productCopy{}), view(next, productCopy{})); err != nil || !changed {
			return events.Draft{}, false, err
		}
	}
	out, err := s.withProducts(ctx, c.Account, []Record{next})
	if err != nil {
		return events.Draft{}, false, err
	}
	data := UpdatedEvent{Inventory: out[0]}
	if ch, ok := changeOf(next); ok && next.ChgReq != prev.ChgReq {
		data.Change = &ch
	}
	return events.Draft{Type: events.InventoryUpdated, Data: data}, true, nil
}

// UpdatedEvent is the data of inventory.updated: the record as GET
// /inventory shows it and, when an adjustment changed it, that change as
// GET /inventory/history lists it (with its reason and reference); null
// for the other changes (a new record of POST, reservations, shipments).
type UpdatedEvent struct {
	Inventory
	Change *Change `json:"change"`
}
