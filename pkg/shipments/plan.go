package shipments

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/orders"
)

// shipItem is one validated line of a shipment request.
type shipItem struct {
	SKU string
	Qty int
}

// repeatOf is the fingerprint of what a shipment request ships: its
// carrier (as given), tracking number and items (SKU and quantity, in any
// order). A request with the fingerprint of one of the order's shipments
// repeats it.
func repeatOf(carrier, tracking string, items []shipItem) string {
	sorted := slices.Clone(items)
	slices.SortFunc(sorted, func(a, b shipItem) int { return cmp.Or(cmp.Compare(a.SKU, b.SKU), cmp.Compare(a.Qty, b.Qty)) })
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s", carrier, tracking)
	for _, it := range sorted {
		fmt.Fprintf(h, "\x00%d\x00%s", it.Qty, it.SKU)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// move is what a shipment takes out of one inventory record: Qty units of
// on_hand, of which FromReserved were reserved for the order.
type move struct{ Qty, FromReserved int }

// errNeedFallback means the shipment takes unassigned units without a
// ship-from warehouse: the caller must name the highest-priority one.
var errNeedFallback = errors.New("a ship-from warehouse is needed")

// applyShipment records the shipment on o (quantities fulfilled, shipped
// and allocated per warehouse) and returns the stock it moves per record.
// Items match a line by its sku or its inventory_sku, filling lines in
// order. Stock leaves wh if given (its allocation there first, then the
// line's unassigned units, then allocations elsewhere are given back),
// else the warehouses the line is allocated at and then fallback.
func applyShipment(o *orders.Order, items []shipItem, wh, fallback string) (map[allocation.Record]move, error) {
	taken := make([]int, len(o.Items))
	for idx, si := range items {
		rem, matched := si.Qty, false
		for i, it := range o.Items {
			if it.SKU != si.SKU && (it.InventorySKU == nil || *it.InventorySKU != si.SKU) {
				continue
			}
			matched = true
			if it.CancelledAt != nil {
				continue
			}
			take := min(rem, it.Left()-taken[i])
			taken[i] += take
			rem -= take
		}
		if !matched {
			return nil, errs.Invalid("items[%d].sku %q is not an item of this order", idx, si.SKU)
		}
		if rem > 0 {
			return nil, errs.Invalid("items[%d].quantity %d is more than the %d left to ship", idx, si.Qty, si.Qty-rem)
		}
	}
	moves := map[allocation.Record]move{}
	for i, q := range taken {
		if q > 0 {
			if err := shipLine(&o.Items[i], q, wh, fallback, moves); err != nil {
				return nil, err
			}
		}
	}
	return moves, nil
}

// shipLine ships q units of it (see applyShipment).
func shipLine(it *orders.Item, q int, wh, fallback string, moves map[allocation.Record]move) error {
	unassigned := it.Unassigned()
	defer func() { it.QuantityFulfilled += q }()
	if it.InventorySKU == nil {
		if wh != "" {
			it.Shipped = orders.AddQty(it.Shipped, wh, q)
		}
		return nil
	}
	add := func(w string, qty, fromReserved int) {
		r := allocation.Record{SKU: *it.InventorySKU, Warehouse: w}
		m := moves[r]
		moves[r] = move{Qty: m.Qty + qty, FromReserved: m.FromReserved + fromReserved}
		it.Shipped = orders.AddQty(it.Shipped, w, qty)
		it.Alloc = orders.AddQty(it.Alloc, w, -fromReserved)
	}
	if wh != "" {
		fromReserved := min(q, it.AllocatedAt(wh))
		add(wh, q, fromReserved)
		rest := q - fromReserved - min(q-fromReserved, unassigned)
		for i := len(it.Alloc) - 1; i >= 0 && rest > 0; i-- {
			a := it.Alloc[i]
			n := min(rest, a.Quantity)
			it.Alloc = orders.AddQty(it.Alloc, a.WarehouseUUID, -n)
			rest -= n
		}
		return nil
	}
	rest := q
	for _, a := range append([]orders.WarehouseQty(nil), it.Alloc...) {
		if rest == 0 {
			break
		}
		n := min(rest, a.Quantity)
		add(a.WarehouseUUID, n, n)
		rest -= n
	}
	if rest > 0 {
		if fallback == "" {
			return errNeedFallback
		}
		add(fallback, rest, 0)
	}
	return nil
}

// covered is the reservation change the moves make themselves.
func covered(moves map[allocation.Record]move) map[allocation.Record]int {
	out := map[allocation.Record]int{}
	for r, m := range moves {
		out[r] = m.FromReserved
	}
	return out
}

// describe names a record for an error message.
func describe(r allocation.Record) string {
	return fmt.Sprintf("SKU %q at warehouse %s", r.SKU, r.Warehouse)
}
