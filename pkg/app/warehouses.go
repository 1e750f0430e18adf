package app

import "github.com/multisell/multisell/pkg/warehouses"

// Warehouses is the warehouses service; archiving one re-allocates the
// orders it held.
func (d *Deps) Warehouses() warehouses.Service {
	return warehouses.Service{Table: d.Table, OnArchive: d.Orders().OnArchive}
}
