package webhooks_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// benchHooked is newHooked for a benchmark: a fresh account with a webhook
// to a new receiver that wants types.
func benchHooked(b *testing.B, types ...string) *hooked {
	b.Helper()
	h := &hooked{Fixture: orderstest.New(b), rcv: newReceiver(b)}
	h.hook = h.create(types...)
	h.rcv.trust(h.hook.Secret)
	return h
}

// BenchmarkDelivery: how many deliveries one delivery function sustains
// against a receiver on loopback that answers at once. b.N new stock
// records (POST /inventory, 50 a request) make b.N inventory.updated
// events, each delivered to one webhook; the rate is the deliveries
// received after the first over the time from the first to the last, so
// the stream hops before the first delivery do not count.
func BenchmarkDelivery(b *testing.B) {
	h := benchHooked(b, events.InventoryUpdated)
	wh := h.Warehouse("A")
	b.ResetTimer()
	for start := 0; start < b.N; start += 50 {
		var items []any
		for i := start; i < min(start+50, b.N); i++ {
			items = append(items, map[string]any{"sku": fmt.Sprintf("BENCH-%06d", i), "warehouse_uuid": wh, "on_hand": 1})
		}
		if r := h.C.Do(http.MethodPost, "/inventory", map[string]any{"inventory": items}); r.Status != http.StatusCreated {
			b.Fatalf("POST /inventory: %d %s", r.Status, r)
		}
	}
	testenv.WaitFor(b, func() bool { return len(firstOfEach(h.rcv.all())) >= b.N }, fmt.Sprintf("%d deliveries", b.N))
	b.StopTimer()
	got := firstOfEach(h.rcv.all())
	first, last := got[0].At, got[0].At
	for _, g := range got {
		if g.At.Before(first) {
			first = g.At
		}
		if g.At.After(last) {
			last = g.At
		}
	}
	if span := last.Sub(first); len(got) > 1 && span > 0 {
		b.ReportMetric(float64(len(got)-1)/span.Seconds(), "deliveries/s")
	}
}

// firstOfEach keeps the first request of each webhook-id: a delivery may
// come twice (at least once), and a repeat is no new delivery.
func firstOfEach(got []received) []received {
	seen := map[string]bool{}
	var out []received
	for _, g := range got {
		if !seen[g.ID] {
			seen[g.ID] = true
			out = append(out, g)
		}
	}
	return out
}

// BenchmarkChangeToEvent: the latency from a change to its event, end to
// end on the local stack with the template's stream batching window: a
// product upsert (POST /products/{sku}) returns, then its product.updated
// event is polled for in GET /events (event-p50-ms, event-p99-ms) and
// awaited at the webhook's receiver (delivery-p50-ms, delivery-p99-ms).
// It also reports the events function's invocations per change (the feed's
// record, the fan-out and the send to the delivery queue are three of its
// batches).
func BenchmarkChangeToEvent(b *testing.B) {
	h := benchHooked(b, events.ProductUpdated)
	var (
		mu          sync.Mutex
		invocations int
	)
	h.Env.ObserveFunction(b, "events", func(testenv.Invocation) {
		mu.Lock()
		defer mu.Unlock()
		invocations++
	})
	var after int64
	var toEvent, toDelivery []float64
	n := 0
	for b.Loop() {
		name := fmt.Sprintf("Bench product %d", n)
		r := h.C.Do(http.MethodPost, "/products/BENCH", map[string]any{"name": name})
		written := time.Now()
		if r.Status != http.StatusOK {
			b.Fatalf("upsert: %d %s", r.Status, r)
		}
		var ev events.Event
		ev, after = waitEvent(b, h, after, name)
		toEvent = append(toEvent, ms(time.Since(written)))
		var at time.Time
		testenv.WaitFor(b, func() bool {
			for _, g := range h.rcv.withID(ev.ID) {
				at = g.At
				return true
			}
			return false
		}, "the delivery of "+ev.ID)
		toDelivery = append(toDelivery, ms(at.Sub(written)))
		n++
	}
	b.ReportMetric(testenv.Percentile(toEvent, 50), "event-p50-ms")
	b.ReportMetric(testenv.Percentile(toEvent, 99), "event-p99-ms")
	b.ReportMetric(testenv.Percentile(toDelivery, 50), "delivery-p50-ms")
	b.ReportMetric(testenv.Percentile(toDelivery, 99), "delivery-p99-ms")
	mu.Lock()
	defer mu.Unlock()
	b.ReportMetric(float64(invocations)/float64(n), "events-invocations/op")
}

// waitEvent polls GET /events every 5 ms, from seq after on, for the
// product.updated whose product is named name; it returns the event and
// the last seq read.
func waitEvent(b *testing.B, h *hooked, after int64, name string) (events.Event, int64) {
	b.Helper()
	match := field("name", name)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		r := h.C.Do(http.MethodGet, fmt.Sprintf("/events?after=%d&type=%s", after, events.ProductUpdated), nil)
		if r.Status != http.StatusOK {
			b.Fatalf("GET /events: %d %s", r.Status, r)
		}
		var page events.Page
		r.JSON(b, &page)
		for _, ev := range page.Events {
			if match(ev) {
				return ev, ev.Seq
			}
		}
		after = page.NextAfter
		time.Sleep(5 * time.Millisecond)
	}
	b.Fatalf("no product.updated of %q after seq %d within 30 s", name, after)
	return events.Event{}, after
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
