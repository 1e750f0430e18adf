package orders

import (
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// The counts of the order lists (store.Counts, docs/data-model.md): the
// sizes behind Total-Pages, changed in the Commit of every write of an
// order (indexWrites).

// Count lists: the orders (value store.CountAll, or <dim>=<status> for
// one status filter) and the fulfillments (value the warehouse).
const (
	countOrders  = "orders"
	countFulfill = "fulfillments"
)

// countNames are the counts o is in: all orders, one per status of o, and
// while o is open one per warehouse it holds stock at (those of its
// fulfillment index items, indexItems).
func countNames(o *Order) []store.CountName {
	out := []store.CountName{
		{List: countOrders, Value: store.CountAll},
		statusCount(dimStatus, o.Status),
		statusCount(dimPayment, o.PaymentStatus),
		statusCount(dimShipment, o.ShipmentStatus),
	}
	if o.open() {
		for _, wh := range o.allocationWarehouses() {
			out = append(out, store.CountName{List: countFulfill, Value: wh})
		}
	}
	return out
}

// statusCount is the count of the orders whose dim is value.
func statusCount(dim, value string) store.CountName {
	return store.CountName{List: countOrders, Value: dim + "=" + value}
}

// countDiff is the change of the counts that takes cur (none when nil) to
// next.
func countDiff(cur, next *Order) store.Counts {
	c := store.Counts{}
	if cur != nil {
		for _, n := range countNames(cur) {
			c.Add(n, -1)
		}
	}
	for _, n := range countNames(next) {
		c.Add(n, 1)
	}
	return c
}

// listCounts are the counts of the order lists that all, every order of an
// account, imply: those of every status and of every warehouse of whs
// (zero when no order is in them), and any other the orders are in.
func listCounts(all []Order, whs []warehouses.Warehouse) store.Counts {
	c := store.Counts{{List: countOrders, Value: store.CountAll}: 0}
	for _, v := range []string{StatusOpen, StatusCompleted, StatusCancelled} {
		c[statusCount(dimStatus, v)] = 0
	}
	for _, v := range []string{All, Partial, None} {
		c[statusCount(dimPayment, v)], c[statusCount(dimShipment, v)] = 0, 0
	}
	for _, w := range whs {
		c[store.CountName{List: countFulfill, Value: w.UUID}] = 0
	}
	for i := range all {
		for _, n := range countNames(&all[i]) {
			c.Add(n, 1)
		}
	}
	return c
}
