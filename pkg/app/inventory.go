package app

import "github.com/multisell/multisell/pkg/inventory"

// Inventory is the inventory service: adjustments go through their queue
// (unreadable ones to its dead-letter queue, those left queued sent again
// after ResendAfter), and the orders service hears of the stock that
// changed.
func (d *Deps) Inventory() inventory.Service {
	s := d.inventoryReads()
	s.Adjustments, s.Rejects = d.queue(d.Config.AdjustmentsQueueURL), d.queue(d.Config.AdjustmentsDLQURL)
	s.ResendAfter, s.Stock = d.Config.AdjustmentResendAfter, d.Orders()
	return s
}

// inventoryReads is the inventory service without its queues and its stock
// listener, for the orders service, which reads records and builds
// reservations but is that listener (see Orders). Records read warehouses
// and products; neither reaches a hook.
func (d *Deps) inventoryReads() inventory.Service {
	return inventory.Service{Table: d.Table, Warehouses: d.warehouseReads(), Catalog: d.Catalog()}
}
