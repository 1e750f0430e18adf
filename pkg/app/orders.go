package app

import "github.com/multisell/multisell/pkg/orders"

// Orders is the orders service. It is also the hook the other services call
// when stock may have changed: it allocates waiting orders when stock
// arrives or is released (inventory, shipments) and re-allocates what an
// archived warehouse held (warehouses).
//
// Because those services hold it, it cannot hold them back as their
// constructors build them (Orders would build Inventory, which builds
// Orders, without end): the neighbours it only reads are views built here
// without hooks (warehouseReads, inventoryReads, listingLinks), and the
// channels service it reads reaches no hook either.
func (d *Deps) Orders() orders.Service {
	return orders.Service{
		Table: d.Table, Warehouses: d.warehouseReads(), Inventory: d.inventoryReads(),
		Channels: d.Channels(), Listings: d.listingLinks(), Catalog: d.Catalog(),
	}
}
