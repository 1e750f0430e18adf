package shipments_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestShipmentPartialThenFull ships an order in two parts and checks every
// status and quantity on the way.
func TestShipmentPartialThenFull(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	f.Stock("S", a, 10)
	doc := f.Doc("R-1", "2024-01-02", orderstest.Line("1", "S", 3))
	doc["paid_at"] = "2024-01-02T10:00:00+02:00"
	seq := f.ImportOne(doc)
	o := f.Order(seq)
	if o.PaymentStatus != orders.All || o.Status != orders.StatusOpen || o.ShipmentStatus != orders.None || *o.PaidAt != "2024-01-02T08:00:00Z" {
		t.Fatalf("imported: %s %s %s %v", o.PaymentStatus, o.Status, o.ShipmentStatus, *o.PaidAt)
	}
	f.WantStock("S", a, 10, 3)

	r := f.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "usps", "tracking_number": "1Z",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}})
	if r.Status != http.StatusOK || !strings.Contains(r.String(), "Shipment created") {
		t.Fatalf("ship 1: %d %s", r.Status, r)
	}
	o = f.Order(seq)
	if o.ShipmentStatus != orders.Partial || o.Status != orders.StatusOpen || o.Items[0].QuantityFulfilled != 1 || o.ShippedAt == nil {
		t.Errorf("after part: %s %s fulfilled %d", o.ShipmentStatus, o.Status, o.Items[0].QuantityFulfilled)
	}
	if got := orderstest.Warehouses(o.Items[0]); !maps.Equal(got, map[string]int{a: 3}) {
		t.Errorf("warehouses = %v (allocated 2 + shipped 1)", got)
	}
	f.WantStock("S", a, 9, 2)
	if fl := f.List("/warehouses/" + a + "/fulfillments"); len(fl) != 1 || *fl[0].Items[0].FulfillmentQuantity != 2 {
		t.Errorf("fulfillments after part = %+v", fl)
	}

	r = f.Ship(map[string]any{"sb_order_seq": fmt.Sprint(seq), "carrier_name": "Bob's Couriers", "tracking_number": "2",
		"warehouse_uuid": a, "items": []any{map[string]any{"sku": "S", "quantity": "2"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("ship 2: %d %s", r.Status, r)
	}
	o = f.Order(seq)
	if o.ShipmentStatus != orders.All || o.Status != orders.StatusCompleted || o.Items[0].QuantityFulfilled != 3 {
		t.Errorf("after all: %s %s fulfilled %d", o.ShipmentStatus, o.Status, o.Items[0].QuantityFulfilled)
	}
	f.WantStock("S", a, 7, 0)
	if fl := f.List("/warehouses/" + a + "/fulfillments"); len(fl) != 0 {
		t.Errorf("completed order still a fulfillment")
	}
	r = f.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "3",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), shipments.MsgNotOpen) {
		t.Errorf("ship completed: %d %s", r.Status, r)
	}
}

// TestShipUnpaidStaysOpen: everything shipped but unpaid is open, then a
// re-import with the payment completes it.
func TestShipUnpaidStaysOpen(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	f.Stock("S", a, 1)
	seq := f.ImportOne(f.Doc("R", "2024-01-02", orderstest.Line("1", "S", 1)))
	if r := f.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}}); r.Status != 200 {
		t.Fatalf("ship: %d %s", r.Status, r)
	}
	if o := f.Order(seq); o.Status != orders.StatusOpen || o.ShipmentStatus != orders.All || o.PaymentStatus != orders.None {
		t.Errorf("unpaid shipped: %s %s %s", o.Status, o.ShipmentStatus, o.PaymentStatus)
	}
	doc := f.Doc("R", "2024-01-02", orderstest.Line("1", "S", 1))
	doc["payment_status"] = "all"
	if res := f.ImportDocs(doc); res[0].Result != orders.ResultUpdated {
		t.Errorf("re-import = %+v", res[0])
	}
	if o := f.Order(seq); o.Status != orders.StatusCompleted {
		t.Errorf("paid and shipped: %s", o.Status)
	}
}

// TestShipByInventorySKU: a channel SKU linked to a product ships by either
// SKU, and an unallocated line ships from the highest-priority warehouse.
func TestShipByInventorySKU(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("PROD-1")
	f.Link("AMZ-1", "PROD-1")
	f.Stock("PROD-1", a, 1)
	seq := f.ImportOne(f.Doc("R", "2024-01-02", orderstest.Line("1", "AMZ-1", 3)))
	o := f.Order(seq)
	if o.Items[0].InventorySKU == nil || *o.Items[0].InventorySKU != "PROD-1" {
		t.Fatalf("inventory_sku = %v", o.Items[0].InventorySKU)
	}
	f.Adjust("PROD-1", a, 5) // 1 was allocated; 2 more now
	if r := f.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "FedEx", "tracking_number": "1",
		"items": []any{map[string]any{"sku": "PROD-1", "quantity": 2}}}); r.Status != 200 {
		t.Fatalf("ship by inventory_sku: %d %s", r.Status, r)
	}
	if r := f.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "FedEx", "tracking_number": "2",
		"items": []any{map[string]any{"sku": "AMZ-1", "quantity": 1}}}); r.Status != 200 {
		t.Fatalf("ship by channel sku: %d %s", r.Status, r)
	}
	o = f.Order(seq)
	if o.Items[0].QuantityFulfilled != 3 || o.ShipmentStatus != orders.All {
		t.Errorf("fulfilled %d, %s", o.Items[0].QuantityFulfilled, o.ShipmentStatus)
	}
	f.WantStock("PROD-1", a, 2, 0)
}

// TestShipmentErrors checks each error of POST /shipments in the order of
// its checks (docs/shipments.md), and that a refused shipment changes
// nothing.
func TestShipmentErrors(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a, b := f.Warehouse("A"), f.Warehouse("B")
	f.Product("S")
	f.Stock("S", a, 5)
	seq := f.ImportOne(f.Doc("R", "2024-01-02", orderstest.Line("1", "S", 2), orderstest.Line("2", "T", 1)))
	cancelled := f.Doc("C", "2024-01-02", orderstest.Line("1", "S", 1))
	cancelled["cancelled_at"] = "2024-01-03"
	cseq := f.ImportOne(cancelled)
	item := func(sku string, q any) []any { return []any{map[string]any{"sku": sku, "quantity": q}} }
	ok := map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1", "items": item("S", 1)}
	with := func(k string, v any) map[string]any {
		m := maps.Clone(ok)
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	// body is sent as {"shipment": body}; with whole, as the request body
	// itself.
	tests := []struct {
		name   string
		body   any
		whole  bool
		status int
		msg    string
	}{
		{"no items", with("items", nil), false, 400, shipments.MsgNoItems},
		{"empty items", with("items", []any{}), false, 400, shipments.MsgNoItems},
		{"no items before unknown order", map[string]any{"sb_order_seq": 999}, false, 400, shipments.MsgNoItems},
		{"no shipment", map[string]any{}, true, 400, shipments.MsgNoItems},
		{"unknown order", with("sb_order_seq", 999), false, 404, shipments.MsgOrderNotFound},
		{"garbage order", with("sb_order_seq", "abc"), false, 404, shipments.MsgOrderNotFound},
		{"unknown order before bad item", map[string]any{"sb_order_seq": 999, "items": item("S", 0)}, false, 404, shipments.MsgOrderNotFound},
		{"cancelled order", with("sb_order_seq", cseq), false, 422, shipments.MsgNotOpen},
		{"unknown warehouse", with("warehouse_uuid", "0190b5a4-0000-7000-8000-000000000000"), false, 404, "Warehouse not found"},
		{"odd warehouse", with("warehouse_uuid", "A/B C+#?"), false, 404, "Warehouse not found"},
		{"unknown warehouse before missing carrier", map[string]any{"sb_order_seq": seq, "warehouse_uuid": "0190b5a4-0000-7000-8000-000000000000", "tracking_number": "1", "items": item("S", 1)}, false, 404, "Warehouse not found"},
		{"missing carrier", with("carrier_name", nil), false, 422, "carrier_name"},
		{"missing tracking", with("tracking_number", nil), false, 422, "tracking_number"},
		{"sku of no line", with("items", item("NOPE", 1)), false, 422, "sku"},
		{"zero quantity", with("items", item("S", 0)), false, 422, "quantity"},
		{"fractional quantity", with("items", item("S", 1.5)), false, 422, "quantity"},
		{"too many", with("items", item("S", 3)), false, 422, "quantity"},
		{"control char sku", with("items", item("S\x01", 1)), false, 422, "sku"},
		{"long sku", with("items", item(strings.Repeat("s", 256), 1)), false, 422, "sku"},
		{"item not object", with("items", []any{"S"}), false, 422, "items[0]"},
		{"shipment not object", map[string]any{"shipment": "x"}, true, 422, "shipment"},
		{"no stock at the ship-from warehouse", with("warehouse_uuid", b), false, 422, "Not enough stock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := tt.body
			if !tt.whole {
				body = map[string]any{"shipment": tt.body}
			}
			r := f.In(t).C.Do("POST", "/shipments", body)
			if got := r.Status; got != tt.status || !strings.Contains(r.String(), tt.msg) {
				t.Errorf("POST /shipments = %d %s, want %d %q", got, r, tt.status, tt.msg)
			}
		})
	}
	for _, raw := range []string{`{"shipment":`, `[1]`, `"x"`, ``} {
		t.Run(fmt.Sprintf("body %q", raw), func(t *testing.T) {
			r := f.In(t).C.Do("POST", "/shipments", raw)
			if got, want := r.Status, 400; got != want {
				t.Errorf("POST /shipments %q = %d %s, want %d", raw, got, r, want)
			}
		})
	}
	t.Run("oversize", func(t *testing.T) {
		r := f.In(t).C.Do("POST", "/shipments", `{"shipment":{"pad":"`+strings.Repeat("x", 1<<20)+`"}}`)
		if got, want := r.Status, 413; got != want {
			t.Errorf("POST /shipments of over 1 MiB = %d, want %d", got, want)
		}
	})
	if o := f.Order(seq); o.Items[0].QuantityFulfilled != 0 || o.ShipmentStatus != orders.None {
		t.Errorf("refused shipments changed the order: %+v", o.Items[0])
	}
	f.WantStock("S", a, 5, 2)
}

// TestTenantIsolation: account B cannot ship account A's order (it is not
// found), and changes nothing of A's order nor of its stock.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	fa, fb := orderstest.New(t), orderstest.New(t)
	a := fa.Warehouse("A")
	fa.Product("S")
	fa.Stock("S", a, 5)
	seq := fa.ImportOne(fa.Doc("R", "2024-01-01", orderstest.Line("1", "S", 2)))
	before := fa.Order(seq)

	r := fb.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1",
		"warehouse_uuid": a, "items": []any{map[string]any{"sku": "S", "quantity": 1}}})
	if r.Status != http.StatusNotFound || !strings.Contains(r.String(), shipments.MsgOrderNotFound) {
		t.Errorf("B ships A's order: %d %s", r.Status, r)
	}
	if after := fa.Order(seq); !reflect.DeepEqual(after, before) {
		t.Errorf("A's order changed: %+v", after)
	}
	fa.WantStock("S", a, 5, 2)
}

// TestShipmentClock: a shipment made with a clock (Service.Now, as the demo
// data ships its past orders) is shipped at that time, on the order and on
// the shipment.
func TestShipmentClock(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	f.Stock("S", a, 1)
	seq := f.ImportOne(f.Doc("R", "2024-01-02", orderstest.Line("1", "S", 1)))
	body, err := lenient.DecodeObject(fmt.Sprintf(`{"shipment":{"sb_order_seq":%d,"carrier_name":"UPS","tracking_number":"1Z1","items":[{"sku":"S","quantity":1}]}}`, seq))
	if err != nil {
		t.Fatal(err)
	}
	req, err := shipments.ParseShipment(body)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 1, 3, 15, 4, 5, 0, time.UTC)
	svc := f.Env.Deps.Shipments()
	svc.Stock, svc.Now = f.Svc, func() time.Time { return at }
	if err := svc.Create(context.Background(), f.Acct.ID, req); err != nil {
		t.Fatal(err)
	}
	const want = "2024-01-03T15:04:05Z"
	if o := f.Order(seq); o.ShippedAt == nil || *o.ShippedAt != want {
		t.Errorf("order shipped_at = %v, want %s", o.ShippedAt, want)
	}
	var list []shipments.View
	f.C.Do("GET", fmt.Sprintf("/shipments?sb_order_seq=%d", seq), nil).JSON(t, &list)
	if len(list) != 1 || list[0].ShippedAt != want {
		t.Errorf("shipments = %+v, want one shipped at %s", list, want)
	}
}
