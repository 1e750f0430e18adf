package shipments_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestRepeatedShipment: without an Idempotency-Key, a POST /shipments that
// repeats one of the order's shipments (the same carrier, tracking number
// and items, in any order) ships nothing and answers the first shipment's id, also
// when the first completed the order and when 8 repeats race; another
// tracking number is another shipment.
func TestRepeatedShipment(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	a := f.Warehouse("A")
	f.Product("S")
	f.Product("T")
	f.Stock("S", a, 10)
	f.Stock("T", a, 10)
	doc := f.Doc("REP-1", "2024-01-02", orderstest.Line("1", "S", 2), orderstest.Line("2", "T", 2))
	doc["paid_at"] = "2024-01-02T10:00:00Z"
	seq := f.ImportOne(doc)
	ship := func(tracking string, items ...map[string]any) map[string]any {
		return map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": tracking, "items": items}
	}
	s1, t1 := map[string]any{"sku": "S", "quantity": 1}, map[string]any{"sku": "T", "quantity": 1}
	idOf := func(body map[string]any) (int, string) {
		r := f.Ship(body)
		var out struct {
			ID string `json:"shipment_id"`
		}
		if r.Status == http.StatusOK {
			r.JSON(t, &out)
		}
		return r.Status, out.ID
	}
	status, first := idOf(ship("1ZA", s1, t1))
	if status != http.StatusOK || first == "" {
		t.Fatalf("first shipment: %d %q", status, first)
	}
	ids := make([]string, 8)
	statuses := make([]int, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() { statuses[i], ids[i] = idOf(ship("1ZA", t1, s1)) })
	}
	wg.Wait()
	for i := range ids {
		if statuses[i] != http.StatusOK || ids[i] != first {
			t.Errorf("repeat %d: %d %q, want 200 and the first shipment %q", i, statuses[i], ids[i], first)
		}
	}
	o := f.Order(seq)
	if o.Items[0].QuantityFulfilled != 1 || o.Items[1].QuantityFulfilled != 1 {
		t.Fatalf("after repeats: fulfilled %d and %d, want 1 and 1", o.Items[0].QuantityFulfilled, o.Items[1].QuantityFulfilled)
	}
	status, second := idOf(ship("1ZB", s1, t1))
	if status != http.StatusOK || second == first {
		t.Fatalf("another tracking number: %d %q, want a new shipment", status, second)
	}
	// The order is complete now: a repeat of either shipment still answers it.
	for tracking, want := range map[string]string{"1ZA": first, "1ZB": second} {
		if status, id := idOf(ship(tracking, s1, t1)); status != http.StatusOK || id != want {
			t.Errorf("repeat of %s on a completed order: %d %q, want 200 %q", tracking, status, id, want)
		}
	}
	f.WantStock("S", a, 8, 0)
	f.WantStock("T", a, 8, 0)
	if r := f.Ship(ship("1ZC", s1)); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("a new shipment on the completed order: %d %s, want 422", r.Status, r)
	}
}

// TestRepeatValidated: a body that repeats a shipment (carrier, tracking
// number and items) but would be refused as a new one (a control character
// in a text, a text over 4,096 characters, a warehouse of another account
// or none) is answered its error, never the first shipment's id, whether
// the first left the order open or completed it.
func TestRepeatValidated(t *testing.T) {
	t.Parallel()
	other := orderstest.New(t).Warehouse("THEIRS")
	for name, ships := range map[string]int{"open order": 1, "completed order": 2} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := orderstest.New(t)
			a := f.Warehouse("A")
			f.Product("S")
			f.Stock("S", a, 10)
			doc := f.Doc("REPV-1", "2024-01-02", orderstest.Line("1", "S", 2))
			doc["paid_at"] = "2024-01-02T10:00:00Z"
			seq := f.ImportOne(doc)
			ship := func(change func(map[string]any)) *testenv.Response {
				body := map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1ZV",
					"warehouse_uuid": a, "items": []any{map[string]any{"sku": "S", "quantity": ships}}}
				change(body)
				return f.Ship(body)
			}
			if r := ship(func(map[string]any) {}); r.Status != http.StatusOK {
				t.Fatalf("first shipment: %d %s", r.Status, r)
			}
			notOpen := http.StatusUnprocessableEntity // a completed order's state answers first
			for name, c := range map[string]struct {
				change     func(map[string]any)
				open, done int
			}{
				"NUL in tracking_url":         {func(b map[string]any) { b["tracking_url"] = "https://t.example/\x00" }, 422, notOpen},
				"BEL in shipping_method":      {func(b map[string]any) { b["shipping_method"] = "Ground\a" }, 422, notOpen},
				"a 5,000-character URL":       {func(b map[string]any) { b["tracking_url"] = "https://t.example/" + strings.Repeat("x", 5000) }, 422, notOpen},
				"another account's warehouse": {func(b map[string]any) { b["warehouse_uuid"] = other }, 404, notOpen},
				"a malformed warehouse":       {func(b map[string]any) { b["warehouse_uuid"] = "nope" }, 404, notOpen},
			} {
				r := ship(c.change)
				want := c.open
				if ships == 2 {
					want = c.done
				}
				if got := r.Status; got != want {
					t.Errorf("%s: %d %s, want %d", name, got, r, want)
				}
			}
			if got := f.Order(seq).Items[0].QuantityFulfilled; got != ships {
				t.Errorf("quantity_fulfilled %d, want %d (shipped once)", got, ships)
			}
		})
	}
}
