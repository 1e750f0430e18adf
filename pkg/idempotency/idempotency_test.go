package idempotency_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// shop is an account with 10 units of "S" at a warehouse and a paid order
// of 4 of them, ready to ship.
func shop(t *testing.T) (*orderstest.Fixture, string, int64) {
	t.Helper()
	f := orderstest.New(t)
	f.Product("S")
	wh := f.Warehouse("W")
	f.Stock("S", wh, 10)
	doc := f.Doc("IDEM-1", "2024-05-01T10:00:00Z", orderstest.Line("1", "S", 4))
	doc["paid_at"] = "2024-05-01T10:05:00Z"
	return f, wh, f.ImportOne(doc)
}

// shipment is a partial shipment of 1 unit of order seq.
func shipment(seq int64, wh, tracking string) map[string]any {
	return map[string]any{"shipment": map[string]any{"sb_order_seq": seq, "warehouse_uuid": wh, "carrier_name": "UPS",
		"tracking_number": tracking, "items": []any{map[string]any{"sku": "S", "quantity": 1}}}}
}

// TestShipmentRetriedWithKey: the same POST /shipments sent twice with one
// key ships once; the second answer is the first, byte for byte, marked as
// a replay. The same key on another body is 422 and ships nothing.
func TestShipmentRetriedWithKey(t *testing.T) {
	t.Parallel()
	f, wh, seq := shop(t)
	c := f.C.WithHeader("Idempotency-Key", "ship-order-1-try")
	first := c.Do(http.MethodPost, "/shipments", shipment(seq, wh, "1ZA"))
	again := c.Do(http.MethodPost, "/shipments", shipment(seq, wh, "1ZA"))
	if first.Status != http.StatusOK || again.Status != first.Status || again.String() != first.String() {
		t.Fatalf("answers %d %s and %d %s, want the same 200 twice", first.Status, first, again.Status, again)
	}
	if first.Header.Get("Idempotent-Replayed") != "" || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("Idempotent-Replayed %q then %q, want none then true", first.Header.Get("Idempotent-Replayed"), again.Header.Get("Idempotent-Replayed"))
	}
	other := c.Do(http.MethodPost, "/shipments", shipment(seq, wh, "1ZB"))
	if got, want := other.String(), `{"error":"Idempotency-Key was already used with another request"}`; other.Status != 422 || got != want {
		t.Errorf("another body with the key: %d %s, want 422 %s", other.Status, got, want)
	}
	if got := f.Order(seq).Items[0].QuantityFulfilled; got != 1 {
		t.Errorf("quantity_fulfilled %d, want 1 (shipped once)", got)
	}
	f.WantStock("S", wh, 9, 3)
}

// TestConcurrentDuplicates: 20 concurrent sends of one shipment with one
// key ship once; every other answer is that answer replayed or 409 while
// it runs.
func TestConcurrentDuplicates(t *testing.T) {
	t.Parallel()
	f, wh, seq := shop(t)
	c := f.C.WithHeader("Idempotency-Key", "concurrent")
	answers := make([]*testenv.Response, 20)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = c.Do(http.MethodPost, "/shipments", shipment(seq, wh, "1ZC")) })
	}
	wg.Wait()
	var ok []*testenv.Response
	for _, r := range answers {
		switch r.Status {
		case http.StatusOK:
			ok = append(ok, r)
		case http.StatusConflict:
			if got, want := r.String(), `{"error":"A request with this Idempotency-Key is still in progress"}`; got != want {
				t.Errorf("409 body %s, want %s", got, want)
			}
		default:
			t.Errorf("answer %d %s, want 200 or 409", r.Status, r)
		}
	}
	if len(ok) == 0 {
		t.Fatal("no request succeeded")
	}
	for _, r := range ok[1:] {
		if r.String() != ok[0].String() {
			t.Errorf("200 answers differ: %s and %s", ok[0], r)
		}
	}
	if got := f.Order(seq).Items[0].QuantityFulfilled; got != 1 {
		t.Errorf("quantity_fulfilled %d, want 1 (one effect of 20 requests)", got)
	}
}

// TestKeyRules: a malformed key is 422 and runs nothing; keys belong to
// their account (another account's same key runs its own request); GETs
// ignore the header; a 4xx answer is kept and replayed like any other.
func TestKeyRules(t *testing.T) {
	t.Parallel()
	f, wh, seq := shop(t)
	for name, key := range map[string]string{"empty": "", "space": "a b", "too long": strings.Repeat("k", 256), "non-ASCII": "clé"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := f.In(t).C.WithHeader("Idempotency-Key", key).Do(http.MethodPost, "/shipments", shipment(seq, wh, "1ZD"))
			if got, want := r.String(), `{"error":"Idempotency-Key must be 1 to 255 visible ASCII characters"}`; r.Status != 422 || got != want {
				t.Errorf("%d %s, want 422 %s", r.Status, got, want)
			}
		})
	}
	t.Run("a 4xx is replayed", func(t *testing.T) {
		t.Parallel()
		c := f.In(t).C.WithHeader("Idempotency-Key", "unknown-order")
		body := shipment(999999, wh, "1ZE")
		a, b := c.Do(http.MethodPost, "/shipments", body), c.Do(http.MethodPost, "/shipments", body)
		if a.Status != 404 || b.Status != 404 || a.String() != b.String() || b.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("%d %s then %d %s (replayed %q), want the same 404 replayed", a.Status, a, b.Status, b, b.Header.Get("Idempotent-Replayed"))
		}
	})
	t.Run("GET ignores the key", func(t *testing.T) {
		t.Parallel()
		r := f.In(t).C.WithHeader("Idempotency-Key", "a b").Do(http.MethodGet, "/shipments", nil)
		if r.Status != http.StatusOK || r.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("GET with a key: %d %s", r.Status, r)
		}
	})
	t.Run("another account", func(t *testing.T) {
		t.Parallel()
		g, gwh, gseq := shop(t)
		a := f.In(t).C.WithHeader("Idempotency-Key", "shared").Do(http.MethodPost, "/shipments", shipment(seq, wh, "1ZF"))
		b := g.C.WithHeader("Idempotency-Key", "shared").Do(http.MethodPost, "/shipments", shipment(gseq, gwh, "1ZF"))
		if a.Status != 200 || b.Status != 200 || b.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("the same key in two accounts: %d %s and %d %s, want two first answers", a.Status, a, b.Status, b)
		}
		if got := g.Order(gseq).Items[0].QuantityFulfilled; got != 1 {
			t.Errorf("the other account's order: quantity_fulfilled %d, want 1", got)
		}
	})
}
