package orders_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestTotalPages: Total-Pages is ceil(count / limit) on page 1 and on the
// last page of GET /orders, alone and with each filter (the counted ones,
// the ranges and two filters at once), and of the fulfillments of each
// warehouse, after imports, cancellations, status changes (a payment, a
// shipment), archiving a warehouse (its orders move to the other) and
// more imports. The count is the number of orders the whole list holds (one
// page of 100). Each stage pages at its own limit: the pager's cursors
// (kept per list and limit for store.CursorTTL) are positions, so a jump
// to a page whose cursor an earlier stage left would start where that page
// started before the change (docs/orders.md, "Listings").
func TestTotalPages(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a, b := f.Warehouse("A"), f.Warehouse("B")
	f.Product("S")
	f.Stock("S", a, 5)
	f.Stock("S", b, 3)
	doc := func(i int, extra map[string]any) map[string]any {
		d := f.Doc(fmt.Sprint("T", i), fmt.Sprintf("2024-01-%02dT00:00:00Z", i), orderstest.Line("1", "S", 1))
		if i%2 == 0 {
			d["paid_at"] = "2024-02-01"
		}
		for k, v := range extra {
			d[k] = v
		}
		return d
	}
	importAll := func(from, to int) {
		for i := from; i <= to; i++ {
			f.ImportOne(doc(i, nil))
		}
	}
	lists := []string{"/orders"}
	for _, q := range []string{"sb_status=open", "sb_status=completed", "sb_status=cancelled",
		"sb_payment_status=all", "sb_payment_status=none", "sb_payment_status=partial",
		"shipment_status=all", "shipment_status=none", "min_ordered_at=2024-01-04", "max_ordered_at=2024-01-06",
		"updated_at_min=2024-01-01", "sb_status=open&sb_payment_status=none", "sb_status=open&min_ordered_at=2024-01-03"} {
		lists = append(lists, "/orders?"+q)
	}
	for _, wh := range []string{a, b} {
		base := "/warehouses/" + wh + "/fulfillments"
		lists = append(lists, base, base+"?sb_payment_status=all", base+"?sb_status=completed")
	}
	stages := []struct {
		name   string
		change func(t *testing.T)
	}{
		{"imports", func(*testing.T) { importAll(1, 9) }}, // 1-5 at A, 6-8 at B, 9 waits
		{"cancellations", func(*testing.T) {
			f.ImportOne(doc(2, map[string]any{"cancelled_at": "2024-02-02"}))
			f.ImportOne(doc(7, map[string]any{"cancelled_at": "2024-02-02"}))
		}},
		{"status changes", func(t *testing.T) {
			f.ImportOne(doc(3, map[string]any{"paid_at": "2024-02-03"}))
			if r := f.In(t).Ship(map[string]any{"sb_order_seq": 1, "carrier_name": "UPS", "tracking_number": "1",
				"items": []any{map[string]any{"sku": "S", "quantity": 1}}}); r.Status != http.StatusOK {
				t.Fatalf("ship: %d %s", r.Status, r)
			}
		}},
		{"archiving a warehouse", func(t *testing.T) {
			if r := f.In(t).C.Do("PUT", "/warehouses/"+a, map[string]any{"warehouse": map[string]any{"archived": true}}); r.Status != http.StatusOK {
				t.Fatalf("archive: %d %s", r.Status, r)
			}
		}},
		{"more imports", func(*testing.T) { importAll(10, 14) }},
	}
	for i, st := range stages {
		t.Run(st.name, func(t *testing.T) {
			st.change(t)
			for _, path := range lists {
				t.Run(path, func(t *testing.T) { checkTotalPages(t, f.In(t), path, 2+i) })
			}
		})
	}
}

// checkTotalPages checks Total-Pages of the list path at limit on page 1
// and on its last page, against the number of orders the list holds.
func checkTotalPages(t *testing.T, f *orderstest.Fixture, path string, limit int) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	f.C.CheckTotalPages(t, path, len(f.List(path+sep+"limit=100")), limit)
}
