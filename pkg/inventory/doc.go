// Package inventory holds stock per SKU per warehouse: GET, POST, PUT and
// PATCH /inventory, the SQS consumer that applies batch adjustments, the
// adjustment status endpoint, and the reservation writes the orders domain
// puts in its transactions. Its decisions are in docs/inventory.md.
//
// Every write keeps available = on_hand - reserved in one update expression,
// so the invariant holds whatever runs concurrently.
package inventory
