package shipments

import (
	"errors"
	"testing"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/orders"
)

func TestApplyShipment(t *testing.T) {
	t.Parallel()
	sku := "S"
	base := func() orders.Order {
		return orders.Order{Status: orders.StatusOpen, Items: []orders.Item{{OrderItemRef: "1", SKU: "CH", InventorySKU: &sku, Quantity: 5,
			Alloc: []orders.WarehouseQty{{WarehouseUUID: "A", Quantity: 2}, {WarehouseUUID: "B", Quantity: 1}}}}}
	}
	o := base()
	moves, err := applyShipment(&o, []shipItem{{SKU: "S", Qty: 3}}, "", "")
	if err != nil || moves[recordOf("A")] != (move{2, 2}) || moves[recordOf("B")] != (move{1, 1}) || o.Items[0].Allocated() != 0 {
		t.Errorf("from allocations: %v %v %+v", moves, err, o.Items[0])
	}
	o = base()
	if _, err := applyShipment(&o, []shipItem{{SKU: "CH", Qty: 4}}, "", ""); !errors.Is(err, errNeedFallback) {
		t.Errorf("unassigned without warehouse: %v", err)
	}
	o = base()
	moves, _ = applyShipment(&o, []shipItem{{SKU: "CH", Qty: 4}}, "", "C")
	if moves[recordOf("C")] != (move{1, 0}) || o.Items[0].QuantityFulfilled != 4 {
		t.Errorf("fallback: %v", moves)
	}
	o = base()
	moves, _ = applyShipment(&o, []shipItem{{SKU: "S", Qty: 5}}, "B", "")
	if moves[recordOf("B")] != (move{5, 1}) || o.Items[0].Allocated() != 0 || len(moves) != 1 {
		t.Errorf("from a named warehouse: %v %+v", moves, o.Items[0])
	}
	o = base()
	if _, err := applyShipment(&o, []shipItem{{SKU: "S", Qty: 6}}, "", "C"); err == nil {
		t.Error("shipping more than ordered succeeded")
	}
}

func recordOf(wh string) allocation.Record {
	return allocation.Record{SKU: "S", Warehouse: wh}
}
