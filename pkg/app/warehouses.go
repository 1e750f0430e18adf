package app

import "github.com/multisell/multisell/pkg/warehouses"

// Warehouses is the warehouses service; archiving one re-allocates the
// orders it held.
func (d *Deps) Warehouses() warehouses.Service {
	return warehouses.Service{Table: d.Table, OnArchive: d.Orders().OnArchive}
}

// warehouseReads is the warehouses service without its archive hook, for
// the services the hook's target (orders) reads through, which only read
// warehouses (see Orders).
func (d *Deps) warehouseReads() warehouses.Service { return warehouses.Service{Table: d.Table} }
