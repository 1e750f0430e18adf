package shipments

import (
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/store"
)

// shipmentChange is what a stream record of a shipment asks of channel
// sync.
type shipmentChange struct {
	sh *Shipment
	// send: the tracking is to be posted (a new shipment, or a retry of a
	// failed post).
	send bool
	// retry: a post just failed; schedule the next attempt.
	retry bool
}

// decodeShipmentChange decodes a stream record of a shipment; ok is false
// for other items, removals and writes that ask nothing.
func decodeShipmentChange(c store.Change) (shipmentChange, bool, error) {
	if c.Kind != kindShipment || !c.New.Exists() {
		return shipmentChange{}, false, nil
	}
	sh, err := decode(c.New)
	if err != nil {
		return shipmentChange{}, false, err
	}
	sc := shipmentChange{sh: sh}
	var was push.State // a new shipment: nothing pushed before
	if c.Old.Exists() {
		old, err := decode(c.Old)
		if err != nil {
			return shipmentChange{}, false, err
		}
		was = old.PushState()
	}
	sc.send, sc.retry = push.Due(was, sh.PushState())
	return sc, sc.send || sc.retry, nil
}
