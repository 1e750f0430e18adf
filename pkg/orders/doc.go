// Package orders is the heart of multisell: orders imported from channels
// (idempotent on channel and display_ref), their allocation to warehouses as
// inventory reservations kept exact by transactions, the order and
// fulfillment listings, and the invariant checker of DESIGN.md section 6.
// The item layout is in docs/data-model.md, the decisions in docs/orders.md.
package orders
