package app

import "github.com/multisell/multisell/pkg/catalog"

// catalog is the service of the product and variation group endpoints.
func (d *Deps) catalog() catalog.Service { return catalog.Service{Table: d.Table} }
