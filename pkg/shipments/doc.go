// Package shipments serves POST /shipments, GET /shipments and GET
// /carriers, and sends each shipment's tracking to its order's channel:
// the request's validation (the carrier names and the channel types' rules
// for them are pkg/carriers'), the plan of what stock leaves which warehouse for which order
// line, and the shipment record. The order belongs to pkg/orders: a
// shipment reads it (orders.Service.Get), changes a copy, and commits the
// change with the stock moves and its record in one transaction
// (orders.Service.SaveShipment, given the shipment's writes as
// []store.Write). The tracking goes out from the table's stream: the
// channel-sync function (pkg/listings) hands each account's records to
// Service.Track, and the inbox hands back the connector's results
// (Service.Confirm) and the delayed retries (Service.Resend), all through
// the one push flow (pkg/push).
//
// handlers.go is the edge, service.go the Service, store.go and
// store_stream.go the shipment's items and stream records; parse.go,
// plan.go, filter.go,
// messages.go and record.go are rules. The decisions are in
// docs/shipments.md, the message formats in docs/channel-sync.md, the item
// layout in docs/data-model.md.
package shipments
