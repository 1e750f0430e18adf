package app

import "github.com/multisell/multisell/pkg/orders"

// orders is the orders service: orders, fulfillments, the order-import
// consumer, and the hooks that keep allocations right when stock arrives or
// is released, or a warehouse is archived.
func (d *Deps) orders() orders.Service {
	return orders.Service{Table: d.Table}
}
