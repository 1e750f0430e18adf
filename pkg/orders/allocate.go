package orders

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// warehouseIDs returns the uuids of whs, in their order.
func warehouseIDs(whs []warehouses.Warehouse) []string {
	out := make([]string, len(whs))
	for i, w := range whs {
		out[i] = w.UUID
	}
	return out
}

// readStock returns what is available of each SKU in each warehouse: one
// strongly consistent BatchGetItem per 100 records.
func readStock(ctx context.Context, t store.Table, account string, skus, whs []string) (allocation.Stock, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(skus)*len(whs))
	for _, sku := range skus {
		for _, wh := range whs {
			keys = append(keys, inventory.Key(account, sku, wh))
		}
	}
	items, err := t.BatchGet(ctx, keys, true)
	if err != nil {
		return nil, fmt.Errorf("read stock: %w", err)
	}
	stock := allocation.Stock{}
	for _, it := range items {
		var r inventory.Record
		if err := attributevalue.UnmarshalMap(it, &r); err != nil {
			return nil, fmt.Errorf("unmarshal inventory: %w", err)
		}
		stock[allocation.Record{SKU: r.SKU, Warehouse: r.Warehouse}] = int(r.Available)
	}
	return stock, nil
}

// planOrder allocates o's unassigned quantities (DESIGN.md section 6) from
// stock, which it reduces by what it allocates.
func planOrder(o *Order, whs []string, stock allocation.Stock) {
	if !o.open() {
		return
	}
	var lines []allocation.Line
	for i, it := range o.Items {
		if it.InventorySKU != nil && it.Unassigned() > 0 {
			lines = append(lines, allocation.Line{Ref: strconv.Itoa(i), SKU: *it.InventorySKU, Need: it.Unassigned()})
		}
	}
	for ref, allocs := range allocation.Plan(lines, whs, stock) {
		i, _ := strconv.Atoi(ref)
		it := &o.Items[i]
		for _, a := range allocs {
			it.Alloc = AddQty(it.Alloc, a.Warehouse, a.Qty)
			stock[allocation.Record{SKU: *it.InventorySKU, Warehouse: a.Warehouse}] -= a.Qty
		}
	}
}

// allocate plans o's unassigned quantities against the current stock.
func allocate(ctx context.Context, t store.Table, account string, o *Order, whs []string) error {
	skus := o.needs()
	if len(skus) == 0 || len(whs) == 0 {
		return nil
	}
	stock, err := readStock(ctx, t, account, skus, whs)
	if err != nil {
		return err
	}
	planOrder(o, whs, stock)
	return nil
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

// StockAvailable implements inventory.StockListener: after records changed,
// it first takes back allocations where more is reserved than is on hand
// (newest orders first, re-planning them elsewhere), then allocates the
// unassigned quantities of the SKUs concerned, oldest order first.
func (s Service) StockAvailable(ctx context.Context, account string, records []inventory.SKUWarehouse) error {
	if len(records) == 0 {
		return nil
	}
	whs, err := warehouses.Service{Table: s.Table}.ByPriority(ctx, account)
	if err != nil {
		return err
	}
	ids := warehouseIDs(whs)
	skus := map[string]bool{}
	for _, r := range records {
		skus[r.SKU] = true
	}
	if err := s.fixOverReserved(ctx, account, records, ids); err != nil {
		return err
	}
	return s.allocateWaiting(ctx, account, sortedKeys(skus), ids)
}

// allocateWaiting allocates, oldest order first, the unassigned quantities
// of skus, until no stock of them is left.
func (s Service) allocateWaiting(ctx context.Context, account string, skus, whs []string) error {
	if len(whs) == 0 || len(skus) == 0 {
		return nil
	}
	stock, err := readStock(ctx, s.Table, account, skus, whs)
	if err != nil {
		return err
	}
	if !anyStock(stock) {
		return nil
	}
	seqs, err := queryIndex(ctx, s.Table, unassignedPK(account), true, containsAny("skus", skus))
	if err != nil {
		return err
	}
	for _, seq := range seqs {
		if !anyStock(stock) {
			return nil
		}
		if err := s.reallocate(ctx, account, seq, whs, "", stock); err != nil {
			return err
		}
	}
	return nil
}

func anyStock(stock allocation.Stock) bool {
	for _, n := range stock {
		if n > 0 {
			return true
		}
	}
	return false
}

// reallocate takes the order's allocations at drop (if set) back and plans
// its unassigned quantities again, in one retried read-modify-write. hint,
// if set, is a local view of the stock that a successful plan reduces; a
// lost race re-reads the stock.
func (s Service) reallocate(ctx context.Context, account string, seq int64, whs []string, drop string, hint allocation.Stock) error {
	first := true
	return Retry(ctx, func() error {
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
		stock := hint
		if !first || stock == nil {
			if stock, err = readStock(ctx, s.Table, account, next.needs(), whs); err != nil {
				return err
			}
		}
		first = false
		planOrder(&next, whs, stock)
		if drop == "" && len(reserveDeltas(cur, &next)) == 0 {
			return nil
		}
		return save(ctx, s.Table, account, cur, &next, nil, nil)
	})
}

// OnArchive is the warehouses.ArchiveHook: the open orders allocated at the
// archived warehouse release it and are planned again over the others.
func (s Service) OnArchive(ctx context.Context, account, warehouse string) error {
	whs, err := warehouses.Service{Table: s.Table}.ByPriority(ctx, account)
	if err != nil {
		return err
	}
	ids := warehouseIDs(whs)
	seqs, err := queryIndex(ctx, s.Table, fulfillPK(account, warehouse), true, nil)
	if err != nil {
		return err
	}
	for _, seq := range seqs {
		if err := s.reallocate(ctx, account, seq, ids, warehouse, nil); err != nil {
			return fmt.Errorf("re-allocate order %d: %w", seq, err)
		}
	}
	return nil
}
