// Package allocation is the pure fulfillment planner of the orders domain
// (docs/orders.md, Allocation): given what order lines still need, the
// merchant's warehouses in priority order and the stock available in each,
// it decides how many units of each line each warehouse reserves. It does no
// I/O; pkg/orders reads the inputs and applies the plan in transactions.
package allocation
