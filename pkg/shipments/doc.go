// Package shipments serves POST /shipments (spec 4.7, DESIGN.md section 6):
// the request's validation, the carrier names, the plan of what stock leaves
// which warehouse for which order line, and the shipment record. The order
// belongs to pkg/orders: a shipment reads it (orders.Get), changes a copy,
// and commits the change with the stock moves and its record in one
// transaction (orders.SaveShipment). The decisions are in docs/shipments.md,
// the item layout in docs/data-model.md.
package shipments
