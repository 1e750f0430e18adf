package app

import "github.com/multisell/multisell/pkg/listings"

// Listings is the listings service and channel sync: it reads channels,
// products, stock and warehouses, pushes to the channel queues, and hands
// shipments' tracking on.
func (d *Deps) Listings() listings.Service {
	return listings.Service{
		Table: d.Table, Channels: d.Channels(), Catalog: d.Catalog(), Inventory: d.Inventory(), Warehouses: d.Warehouses(),
		Push: d.channelPush(), Tracking: d.Shipments(),
	}
}

// listingLinks is the listings service with only its table, for the orders
// service's import, which reads a channel's links (Links reads nothing
// else), and which channel sync reaches (see Orders).
func (d *Deps) listingLinks() listings.Service { return listings.Service{Table: d.Table} }
