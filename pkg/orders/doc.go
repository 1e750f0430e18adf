// Package orders is the heart of multisell: orders imported from channels
// (idempotent on channel and display_ref), their allocation to warehouses as
// inventory reservations kept exact by transactions, the order and
// fulfillment lists, and the checker of the invariants of docs/orders.md.
// It owns the Order model and its transactional persistence: pkg/shipments
// changes an order through Service.Get, Order.Clone, AddQty and Retry, and
// commits the change with its own writes in one transaction through
// Service.SaveShipment.
//
// The edge is handlers.go (the endpoints; import documents arrive through
// the channel inbox, pkg/inbox); service.go is the Service and its operations; the
// storage (keys, items, the index items behind the lists, queries, write
// sets, paging) is in the store*.go files; the other files are rules:
// import documents, statuses, allocation, invariants. The item layout is in
// docs/data-model.md, the decisions in docs/orders.md.
package orders
