package app

import "github.com/multisell/multisell/pkg/catalog"

// Catalog is the catalog service: products and variation groups.
func (d *Deps) Catalog() catalog.Service { return catalog.Service{Table: d.Table} }
