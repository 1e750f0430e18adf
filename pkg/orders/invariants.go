package orders

import (
	"fmt"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/inventory"
)

// The checks of CheckInvariants (docs/orders.md, "Invariant checker") over
// what was read: the orders' lines and statuses, and the inventory records
// against the open orders' allocations.

// checkOrders verifies that the seqs of all (in seq order) run from 1 with
// no gap, and each order's lines and statuses.
func checkOrders(all []Order, bad func(string, ...any)) {
	for i := range all {
		if all[i].Seq != int64(i+1) {
			bad("order seqs are not 1..n: found %d at position %d", all[i].Seq, i+1)
		}
		checkOrder(&all[i], bad)
	}
}

// checkOrder verifies one order's lines and statuses.
func checkOrder(o *Order, bad func(string, ...any)) {
	for _, it := range o.Items {
		alloc := 0
		for _, a := range it.Alloc {
			if a.Quantity <= 0 {
				bad("order %d line %s: allocation %d at %s", o.Seq, it.OrderItemRef, a.Quantity, a.WarehouseUUID)
			}
			alloc += a.Quantity
		}
		if alloc > 0 && (!o.open() || it.CancelledAt != nil || it.InventorySKU == nil) {
			bad("order %d line %s: holds %d but needs no stock", o.Seq, it.OrderItemRef, alloc)
		}
		if it.QuantityFulfilled < 0 || it.QuantityCancelled < 0 || alloc+it.QuantityFulfilled+it.QuantityCancelled > it.Quantity {
			bad("order %d line %s: allocated %d + fulfilled %d + cancelled %d exceed quantity %d",
				o.Seq, it.OrderItemRef, alloc, it.QuantityFulfilled, it.QuantityCancelled, it.Quantity)
		}
		if sumQty(it.Shipped) > it.QuantityFulfilled {
			bad("order %d line %s: shipped per warehouse %d > fulfilled %d", o.Seq, it.OrderItemRef, sumQty(it.Shipped), it.QuantityFulfilled)
		}
	}
	d := o.Clone()
	d.derive()
	if d.Status != o.Status || d.ShipmentStatus != o.ShipmentStatus {
		bad("order %d: statuses %s/%s, expected %s/%s", o.Seq, o.Status, o.ShipmentStatus, d.Status, d.ShipmentStatus)
	}
}

// reservedBy returns what the orders hold at each inventory record.
func reservedBy(all []Order) map[allocation.Record]int {
	out := map[allocation.Record]int{}
	for _, o := range all {
		for _, it := range o.Items {
			for _, a := range it.Alloc {
				out[allocation.Record{SKU: *it.InventorySKU, Warehouse: a.WarehouseUUID}] += a.Quantity
			}
		}
	}
	return out
}

// checkStock verifies every inventory record: available = on_hand -
// reserved, and reserved = what the open orders hold there (want).
func checkStock(records []inventory.Record, want map[allocation.Record]int, bad func(string, ...any)) {
	seen := map[allocation.Record]bool{}
	for _, r := range records {
		k := allocation.Record{SKU: r.SKU, Warehouse: r.Warehouse}
		seen[k] = true
		if r.Available != r.OnHand-r.Reserved {
			bad("inventory %s: available %d != on_hand %d - reserved %d", describe(k), r.Available, r.OnHand, r.Reserved)
		}
		if r.Reserved != int64(want[k]) {
			bad("inventory %s: reserved %d, open orders hold %d", describe(k), r.Reserved, want[k])
		}
	}
	for k, n := range want {
		if !seen[k] && n != 0 {
			bad("orders hold %d of %s, which has no inventory record", n, describe(k))
		}
	}
}

// describe names a record in a violation.
func describe(r allocation.Record) string {
	return fmt.Sprintf("SKU %q at warehouse %s", r.SKU, r.Warehouse)
}
