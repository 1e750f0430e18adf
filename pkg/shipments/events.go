package shipments

import (
	"context"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/store"
)

// EventKinds are the item kinds whose changes EventOf reads.
func (Service) EventKinds() []string { return []string{kindShipment} }

// EventOf is the shipments' source of the event feed: a new shipment is
// shipment.created, with the shipment as GET /shipments returns it.
func (s Service) EventOf(_ context.Context, c store.Change) (events.Draft, bool, error) {
	if c.Kind != kindShipment || c.Old.Exists() || !c.New.Exists() {
		return events.Draft{}, false, nil
	}
	sh, err := decode(c.New)
	if err != nil {
		return events.Draft{}, false, err
	}
	return events.Draft{Type: events.ShipmentCreated, Data: sh.view()}, true, nil
}
