package app

import "github.com/multisell/multisell/pkg/inventory"

// inventory is the inventory service: PUT and PATCH /inventory queue to the
// adjustments queue, whose consumer is the same service.
func (d *Deps) inventory() inventory.Service {
	return inventory.Service{Table: d.Table, SQS: d.SQS, QueueURL: d.Config.AdjustmentsQueueURL, Stock: d.orders()}
}
