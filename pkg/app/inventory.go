package app

import "github.com/multisell/multisell/pkg/inventory"

// Inventory is the inventory service: adjustments go through their queue
// (unreadable ones to its dead-letter queue, those left queued sent again
// after ResendAfter), and the orders service hears of the stock that
// changed.
func (d *Deps) Inventory() inventory.Service {
	return inventory.Service{
		Table: d.Table, Adjustments: d.queue(d.Config.AdjustmentsQueueURL), Rejects: d.queue(d.Config.AdjustmentsDLQURL),
		ResendAfter: d.Config.AdjustmentResendAfter, Stock: d.Orders(),
	}
}
