package orders_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestListFiltersAndPages: every filter of GET /orders and of the
// fulfillments (docs/orders.md, "Listings"), in (ordered_at, seq) order,
// with page and limit. The cases run in order: some pages are reached
// sequentially, others by a jump.
func TestListFiltersAndPages(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	f.Stock("S", a, 100)
	var all []int64
	for i := range 7 {
		d := f.Doc(fmt.Sprint("R", i), fmt.Sprintf("2024-01-%02dT00:00:00Z", 7-i), orderstest.Line("1", "S", 1))
		if i%2 == 0 {
			d["paid_at"] = "2024-02-01"
		}
		if i == 3 {
			d["cancelled_at"] = "2024-02-01"
		}
		all = append([]int64{f.ImportOne(d)}, all...)
	}
	if r := f.Ship(map[string]any{"sb_order_seq": 1, "carrier_name": "UPS", "tracking_number": "1",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}}); r.Status != 200 {
		t.Fatalf("ship: %d %s", r.Status, r)
	}
	fulfillments := "/warehouses/" + a + "/fulfillments"
	lists := []struct {
		path string
		want []int64
	}{
		{"/orders", all},
		{"/orders?limit=3", all[:3]},
		{"/orders?limit=3&page=2", all[3:6]},
		{"/orders?limit=3&page=3", all[6:]},
		{"/orders?limit=3&page=4", []int64{}},
		{"/orders?limit=3&page=2", all[3:6]},
		{"/orders?page=1&limit=200", all},
		{"/orders?min_ordered_at=2024-01-03&max_ordered_at=2024-01-05T00:00:00Z", []int64{5, 4, 3}},
		{"/orders?ordered_at_min=2024-01-06", []int64{2, 1}},
		{"/orders?min_ordered_at=2024-01-06&max_ordered_at=2024-01-01", []int64{}},
		{"/orders?sb_status=cancelled", []int64{4}},
		{"/orders?sb_status=canceled", []int64{4}},
		{"/orders?sb_status=completed", []int64{1}},
		{"/orders?sb_status=open", []int64{7, 6, 5, 3, 2}},
		{"/orders?sb_payment_status=all", []int64{7, 5, 3, 1}},
		{"/orders?sb_payment_status=none", []int64{6, 4, 2}},
		{"/orders?sb_payment_status=partial", []int64{}},
		{"/orders?shipment_status=all", []int64{1}},
		{"/orders?shipment_status=none&sb_payment_status=all&limit=1&page=2", []int64{5}},
		{"/orders?shipment_status=none&sb_status=open&max_ordered_at=2024-01-02", []int64{7, 6}},
		{"/orders?shipment_status=none&sb_status=open&max_ordered_at=2024-01-01T23:59:59Z", []int64{7}},
		{fulfillments + "?limit=2&page=2&sb_payment_status=all", []int64{3}},
		{fulfillments + "?sb_status=completed", []int64{}},
	}
	for _, tt := range lists {
		t.Run("GET "+tt.path, func(t *testing.T) {
			got := orderstest.Seqs(f.In(t).List(tt.path))
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("GET %s = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
	for _, q := range []string{"page=0", "limit=0", "page=x", "limit=-1", "sb_status=done", "sb_payment_status=some",
		"shipment_status=x", "min_ordered_at=never", "max_ordered_at=2024-13-45"} {
		for _, path := range []string{"/orders?", fulfillments + "?"} {
			t.Run("GET "+path+q, func(t *testing.T) {
				r := f.In(t).C.Do("GET", path+q, nil)
				if got, want := r.Status, http.StatusUnprocessableEntity; got != want {
					t.Errorf("GET %s%s = %d %s, want %d", path, q, got, r, want)
				}
			})
		}
	}
	for _, id := range []string{"0190b5a4-0000-7000-8000-000000000000", "nope", "A%2FB%20C%2B%23%3F"} {
		for _, path := range []string{"/warehouses/" + id + "/fulfillments", "/warehouses/fulfillments/" + id} {
			t.Run("GET "+path, func(t *testing.T) {
				r := f.In(t).C.Do("GET", path, nil)
				if got, want := r.Status, http.StatusNotFound; got != want || !strings.Contains(r.String(), "Warehouse not found") {
					t.Errorf("GET %s = %d %s, want %d Warehouse not found", path, got, r, want)
				}
			})
		}
	}
}

// TestTenantIsolation: account B sees none of account A's orders or
// fulfillments, and changes nothing of A's (pkg/shipments checks that B
// cannot ship A's order).
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	fa, fb := orderstest.New(t), orderstest.New(t)
	a := fa.Warehouse("A")
	fa.Product("S")
	fa.Stock("S", a, 5)
	seq := fa.ImportOne(fa.Doc("R", "2024-01-01", orderstest.Line("1", "S", 2)))
	before := fa.Order(seq)

	if got := fb.List("/orders"); len(got) != 0 {
		t.Errorf("B lists A's orders: %v", orderstest.Seqs(got))
	}
	checks := []struct{ method, path string }{
		{"GET", fmt.Sprintf("/orders/%d", seq)},
		{"GET", "/warehouses/" + a + "/fulfillments"},
		{"GET", "/warehouses/fulfillments/" + a},
	}
	for _, c := range checks {
		if r := fb.C.Do(c.method, c.path, nil); r.Status != http.StatusNotFound {
			t.Errorf("B %s %s: %d %s", c.method, c.path, r.Status, r)
		}
	}
	// B importing into A's channel is refused.
	res := fb.ImportDocs(fa.Doc("R", "2024-01-01", orderstest.Line("1", "S", 9)))
	if res[0].Result != orders.ResultError {
		t.Errorf("B imported into A's channel: %+v", res[0])
	}
	if after := fa.Order(seq); !reflect.DeepEqual(after, before) {
		t.Errorf("A's order changed: %+v", after)
	}
	fa.WantStock("S", a, 5, 2)
}

// TestConcurrentInvariants runs imports, cancellations, adjustments and
// shipments from many goroutines on one account, then checks every
// invariant (the fixture's cleanup) and that no update was lost.
func TestConcurrentInvariants(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	whs := []string{f.Warehouse("A"), f.Warehouse("B")}
	skus := []string{"S1", "S2", "S3"}
	for _, s := range skus {
		f.Product(s)
		for _, w := range whs {
			f.Stock(s, w, 3)
		}
	}
	const workers, perWorker = 6, 8
	var wg sync.WaitGroup
	shipped := make([]int, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range perWorker {
				ref := fmt.Sprintf("W%d-%d", w, i)
				d := f.Doc(ref, fmt.Sprintf("2024-01-%02dT%02d:00:00Z", 1+rng.IntN(28), rng.IntN(24)),
					orderstest.Line("1", skus[rng.IntN(3)], 1+rng.IntN(2)), orderstest.Line("2", skus[rng.IntN(3)], 1))
				d["paid_at"] = "2024-02-01"
				res := f.ImportDocs(d)
				seq := *res[0].Seq
				switch rng.IntN(4) {
				case 0:
					d["cancelled_at"] = "2024-02-02"
					f.ImportDocs(d)
				case 1:
					f.Invoke("inventory-adjust", "PUT", nil, map[string]any{"inventory": []any{
						map[string]any{"sku": skus[rng.IntN(3)], "warehouse_uuid": whs[rng.IntN(2)], "on_hand": rng.IntN(6)}}})
				default:
					body := map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": ref,
						"items": []any{map[string]any{"sku": d["items"].([]map[string]any)[1]["sku"], "quantity": 1}}}
					if r := f.C.Do("POST", "/shipments", map[string]any{"shipment": body}); r.Status == 200 {
						shipped[w]++
					}
				}
			}
		}()
	}
	wg.Wait()
	f.Env.Drain(t)
	list := f.List("/orders")
	if len(list) != workers*perWorker {
		t.Errorf("%d orders, want %d", len(list), workers*perWorker)
	}
	fulfilled, want := 0, 0
	for _, o := range list {
		for _, it := range o.Items {
			fulfilled += it.QuantityFulfilled
		}
	}
	for _, n := range shipped {
		want += n
	}
	if fulfilled != want {
		t.Errorf("fulfilled %d units, %d shipments succeeded: an update was lost", fulfilled, want)
	}
	if err := f.Env.Deps.Orders().CheckInvariants(context.Background(), f.Acct.ID); err != nil {
		t.Errorf("invariants: %v", err)
	}
	// Once everything settled, no order waits for a SKU that is available.
	for _, o := range list {
		for _, it := range f.Order(o.Seq).Items {
			if o.Status != orders.StatusOpen || it.InventorySKU == nil || it.Unassigned() == 0 {
				continue
			}
			for _, w := range whs {
				if r := f.Record(*it.InventorySKU, w); r.Available > 0 {
					t.Errorf("order %d waits for %d of %s while %s has %d available", o.Seq, it.Unassigned(), *it.InventorySKU, w, r.Available)
				}
			}
		}
	}
}
