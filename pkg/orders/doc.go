// Package orders is the heart of multisell: orders imported from channels
// (idempotent on channel and display_ref), their allocation to warehouses as
// inventory reservations kept exact by transactions, the order and
// fulfillment listings, and the invariant checker of DESIGN.md section 6.
// It owns the Order model and its transactional persistence: pkg/shipments
// changes an order through Get, Order.Clone, AddQty and Retry, and commits
// the change with its own writes in one transaction through SaveShipment.
// The item layout is in docs/data-model.md, the decisions in docs/orders.md.
package orders
