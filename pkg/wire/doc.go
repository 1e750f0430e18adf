// Package wire is the contract between multisell and the channel connectors, a leaf that
// imports nothing of multisell's: the messages of the channel outbox (listing.quantity,
// shipment.tracking, each starting with a Header) and those the connectors answer on the
// channel inbox (listing.result, shipment.result), their type names, and the order import
// document (OrderDocument) every connector, sandbox, the demo and the tests build. The
// domains send and read these shapes; the connector runtime and the connectors know only
// them. The formats are in docs/channel-sync.md and docs/orders.md ("Import").
package wire
