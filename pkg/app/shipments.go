package app

import "github.com/multisell/multisell/pkg/shipments"

// shipments is the service of POST /shipments; stock a shipment releases
// goes to the orders service, to allocate it to waiting orders.
func (d *Deps) shipments() shipments.Service {
	return shipments.Service{Table: d.Table, Stock: d.orders()}
}
