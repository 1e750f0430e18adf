package app

import "github.com/multisell/multisell/pkg/shipments"

// Shipments is the shipments service: the orders service hears of the stock
// a shipment releases, and tracking goes to the channels through their
// queues.
func (d *Deps) Shipments() shipments.Service {
	return shipments.Service{
		Table: d.Table, Stock: d.Orders(), Orders: d.Orders(), Warehouses: d.Warehouses(), Inventory: d.Inventory(),
		Push: d.channelPush(),
	}
}
