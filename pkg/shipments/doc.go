// Package shipments serves POST /shipments: the request's validation, the
// carrier names, the plan of what stock leaves which warehouse for which
// order line, and the shipment record. The order belongs to pkg/orders: a
// shipment reads it (orders.Service.Get), changes a copy, and commits the
// change with the stock moves and its record in one transaction
// (orders.Service.SaveShipment, given the shipment's writes as
// []store.Write).
//
// handlers.go is the edge, service.go the Service, store.go the shipment's
// writes; parse.go, plan.go, carriers.go and record.go are rules. The
// decisions are in docs/shipments.md, the item layout in
// docs/data-model.md.
package shipments
