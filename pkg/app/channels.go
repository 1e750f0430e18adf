package app

import "github.com/multisell/multisell/pkg/channels"

// Channels is the channels service. The orders service reads channels, so
// their warehouses are the reads-only view (see Orders).
func (d *Deps) Channels() channels.Service {
	return channels.Service{Table: d.Table, Warehouses: d.warehouseReads()}
}
