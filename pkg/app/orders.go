package app

import "github.com/multisell/multisell/pkg/orders"

// Orders is the orders service. It is also the hook the other services call
// when stock may have changed: it allocates waiting orders when stock
// arrives or is released (inventory, shipments) and re-allocates what an
// archived warehouse held (warehouses).
func (d *Deps) Orders() orders.Service { return orders.Service{Table: d.Table} }
