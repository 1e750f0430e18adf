package orders

import (
	"context"
	"slices"
	"sort"
	"strconv"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Allocation (docs/orders.md, "Allocation"): the plan of an order's
// unassigned quantities over the warehouses, the reservation changes that
// take one state of an order to another, and the runs that allocate
// waiting orders when stock becomes available.

// warehouseIDs returns the uuids of whs, in their order.
func warehouseIDs(whs []warehouses.Warehouse) []string {
	out := make([]string, len(whs))
	for i, w := range whs {
		out[i] = w.UUID
	}
	return out
}

// planOrder allocates o's unassigned quantities from sup's stock over its
// warehouses (in priority order, whole order first: pkg/allocation), and
// reduces sup's stock by what it allocates.
func planOrder(o *Order, sup supply) {
	if !o.open() {
		return
	}
	var lines []allocation.Line
	for i, it := range o.Items {
		if it.InventorySKU != nil && it.Unassigned() > 0 {
			lines = append(lines, allocation.Line{Ref: strconv.Itoa(i), SKU: *it.InventorySKU, Need: it.Unassigned()})
		}
	}
	for ref, allocs := range allocation.Plan(lines, sup.whs, sup.stock) {
		i, _ := strconv.Atoi(ref)
		it := &o.Items[i]
		for _, a := range allocs {
			it.Alloc = AddQty(it.Alloc, a.Warehouse, a.Qty)
			sup.stock[allocation.Record{SKU: *it.InventorySKU, Warehouse: a.Warehouse}] -= a.Qty
		}
	}
}

// delta is a change of the quantity reserved at one inventory record.
type delta struct {
	allocation.Record
	Qty int
}

// reserveDeltas returns the reservation changes that take cur's allocations
// (none when cur is nil) to next's, in a fixed order.
func reserveDeltas(cur, next *Order) []delta {
	sum := map[allocation.Record]int{}
	add := func(o *Order, sign int) {
		if o == nil {
			return
		}
		for _, it := range o.Items {
			for _, a := range it.Alloc {
				sum[allocation.Record{SKU: *it.InventorySKU, Warehouse: a.WarehouseUUID}] += sign * a.Quantity
			}
		}
	}
	add(cur, -1)
	add(next, 1)
	var out []delta
	for r, q := range sum {
		if q != 0 {
			out = append(out, delta{r, q})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].SKU != out[j].SKU {
			return out[i].SKU < out[j].SKU
		}
		return out[i].Warehouse < out[j].Warehouse
	})
	return out
}

// released returns the records where next holds less than cur, net of the
// reserved units shipped from them (a shipment's covered moves, nil for
// other changes): stock that the change makes available to other orders.
func released(cur, next *Order, shipped map[allocation.Record]int) []inventory.SKUWarehouse {
	var out []inventory.SKUWarehouse
	for _, d := range reserveDeltas(cur, next) {
		if d.Qty+shipped[d.Record] < 0 {
			out = append(out, inventory.SKUWarehouse{SKU: d.SKU, Warehouse: d.Warehouse})
		}
	}
	return out
}

// anyStock reports whether any record of sup has stock available.
func (sup supply) anyStock() bool {
	for _, n := range sup.stock {
		if n > 0 {
			return true
		}
	}
	return false
}

// without returns whs without wh, in the same order (a new slice).
func without(whs []string, wh string) []string {
	return slices.DeleteFunc(slices.Clone(whs), func(w string) bool { return w == wh })
}

// allocate plans o's unassigned quantities against the current stock, over
// the active warehouses but skip (if set).
func (s Service) allocate(ctx context.Context, account string, o *Order, skip string) error {
	sup, err := s.readSupply(ctx, account, o.needs())
	if err != nil {
		return err
	}
	sup.whs = without(sup.whs, skip)
	planOrder(o, sup)
	return nil
}

// allocateWaiting allocates, oldest order first, the unassigned quantities
// of skus, until no stock of them is left: it reads the orders waiting for
// them, then, if any, the stock of the SKUs they wait for.
func (s Service) allocateWaiting(ctx context.Context, account string, skus []string) error {
	seqs, waited, err := waitingFor(ctx, s.Table, account, skus)
	if err != nil || len(seqs) == 0 {
		return err
	}
	sup, err := s.readSupply(ctx, account, waited)
	if err != nil {
		return err
	}
	for _, seq := range seqs {
		if !sup.anyStock() {
			return nil
		}
		if err := s.reallocate(ctx, account, seq, "", &sup); err != nil {
			return err
		}
	}
	return nil
}

// reallocate takes the order's allocations at drop (if set) back and plans
// its unassigned quantities again over the other warehouses, in one retried
// read-modify-write. hint, if set, is a local view of the supply that a
// successful plan reduces; a lost race reads it again.
func (s Service) reallocate(ctx context.Context, account string, seq int64, drop string, hint *supply) error {
	first := true
	return retry(ctx, func() error {
		cur, err := s.Get(ctx, account, seq)
		if err != nil {
			return err
		}
		next := cur.Clone()
		if drop != "" {
			for i := range next.Items {
				next.Items[i].Alloc = AddQty(next.Items[i].Alloc, drop, -next.Items[i].AllocatedAt(drop))
			}
		}
		var sup supply
		if first && hint != nil {
			sup = *hint
		} else if sup, err = s.readSupply(ctx, account, next.needs()); err != nil {
			return err
		}
		first = false
		sup.whs = without(sup.whs, drop)
		planOrder(&next, sup)
		if drop == "" && len(reserveDeltas(cur, &next)) == 0 {
			return nil
		}
		return s.save(ctx, account, cur, &next, nil, nil)
	})
}
