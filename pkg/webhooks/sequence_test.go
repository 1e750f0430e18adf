package webhooks_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// workload is what a mixed concurrent load on one account made: the
// resources whose creation must each be in the feed once.
type workload struct {
	orders      []int64
	adjustments []string
	shipments   []string
}

// mixedLoad imports n orders and ships each, and queues n adjustments, all
// at once, then waits until the stack is idle.
func mixedLoad(t *testing.T, f *orderstest.Fixture, n int) workload {
	t.Helper()
	wh := f.Warehouse("A")
	f.Product("S")
	f.Stock("S", wh, 1000)
	var (
		mu sync.Mutex
		w  workload
		wg sync.WaitGroup
	)
	for i := range n {
		wg.Go(func() {
			doc := f.Doc(fmt.Sprintf("R-%d", i), "2024-01-02", orderstest.Line("L1", "S", 1))
			doc["paid_at"] = "2024-01-02T10:00:00Z"
			res, err := f.Import(doc)
			if err != nil || res[0].Seq == nil {
				t.Errorf("import %d: %v %+v", i, err, res)
				return
			}
			seq := *res[0].Seq
			r := f.C.Do(http.MethodPost, "/shipments", map[string]any{"shipment": map[string]any{
				"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": fmt.Sprintf("1Z%d", i),
				"items": []any{map[string]any{"sku": "S", "quantity": 1}}}})
			var sh struct {
				ID string `json:"shipment_id"`
			}
			if r.Status != http.StatusOK || json.Unmarshal(r.Body, &sh) != nil {
				t.Errorf("ship %d: %d %s", seq, r.Status, r)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			w.orders = append(w.orders, seq)
			w.shipments = append(w.shipments, sh.ID)
		})
		wg.Go(func() {
			r := f.C.Do(http.MethodPut, "/inventory", map[string]any{"inventory": []any{
				map[string]any{"sku": "S", "warehouse_uuid": wh, "on_hand": 1000 + i}}})
			var out struct {
				ID string `json:"request_id"`
			}
			if r.Status != http.StatusOK || json.Unmarshal(r.Body, &out) != nil {
				t.Errorf("adjust %d: %d %s", i, r.Status, r)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			w.adjustments = append(w.adjustments, out.ID)
		})
	}
	wg.Wait()
	f.Env.Drain(t)
	return w
}

// checkFeed reads the account's whole feed and checks it: seq 1..N without
// a gap or a repeat, ids unique, and each order, adjustment and shipment of
// w created once.
func checkFeed(t *testing.T, c *testenv.Client, w workload) []events.Event {
	t.Helper()
	all := feed(t, c, "", 7)
	ids := map[string]bool{}
	for i, ev := range all {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: the feed has a gap or a repeat (seqs %v)", i+1, ev.Seq, seqs(all))
		}
		if ids[ev.ID] {
			t.Errorf("event id %s twice", ev.ID)
		}
		ids[ev.ID] = true
	}
	count := func(typ, member string) map[string]int {
		out := map[string]int{}
		for _, ev := range all {
			if ev.Type != typ {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal(ev.Data, &m); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprint(m[member])]++
		}
		return out
	}
	cases := []struct {
		typ, member string
		want        []string
	}{
		{events.OrderCreated, "sb_order_seq", texts(w.orders)},
		{events.AdjustmentApplied, "request_id", w.adjustments},
		{events.ShipmentCreated, "shipment_id", w.shipments},
	}
	for _, tc := range cases {
		got := count(tc.typ, tc.member)
		if len(got) != len(tc.want) {
			t.Errorf("%s events name %d resources, want %d", tc.typ, len(got), len(tc.want))
		}
		for _, id := range tc.want {
			if got[id] != 1 {
				t.Errorf("%s of %s: %d events, want 1", tc.typ, id, got[id])
			}
		}
	}
	return all
}

// TestFeedHasNoGaps: after concurrent imports, adjustments and shipments on
// one account, the feed numbers its events 1..N, every change once; the
// type filter returns the same events of that type, in order.
func TestFeedHasNoGaps(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	w := mixedLoad(t, f, 12)
	all := checkFeed(t, f.C, w)
	for _, typ := range []string{events.OrderCreated, events.InventoryUpdated} {
		var want []int64
		for _, ev := range all {
			if ev.Type == typ {
				want = append(want, ev.Seq)
			}
		}
		if got := seqs(feed(t, f.C, "&type="+typ, 5)); !slices.Equal(got, want) {
			t.Errorf("type=%s: seqs %v, want %v", typ, got, want)
		}
	}
}

// TestNoEventLostOnFaults: the events and the delivery functions fail in the
// middle of batches (the event source mappings give the batches again), and
// stream records are replayed: the feed still has every change once, and
// every event reaches the webhook.
func TestNoEventLostOnFaults(t *testing.T) {
	t.Parallel()
	h := newHooked(t, "*")
	var (
		mu     sync.Mutex
		failed = map[string]int{}
	)
	for _, fn := range []string{"events", "webhook-delivery"} {
		h.Env.FailMidBatch(t, fn, 3)
		h.Env.ObserveFunction(t, fn, func(inv testenv.Invocation) {
			if inv.Failed {
				mu.Lock()
				defer mu.Unlock()
				failed[fn]++
			}
		})
	}
	w := mixedLoad(t, h.Fixture, 8)
	all := checkFeed(t, h.C, w)

	// Every event delivered, and every delivery ended well.
	testenv.WaitFor(t, func() bool {
		got := map[string]bool{}
		for _, g := range h.rcv.all() {
			got[g.ID] = true
		}
		for _, ev := range all {
			if !got[ev.ID] {
				return false
			}
		}
		return true
	}, "every event delivered")
	h.Env.Drain(t)
	mu.Lock()
	if failed["events"] == 0 || failed["webhook-delivery"] == 0 {
		t.Errorf("injected failures: %v; want some of both functions", failed)
	}
	mu.Unlock()
	ds := h.deliveries(h.hook.ID, "limit=100")
	if len(ds) != min(len(all), 100) {
		t.Errorf("%d deliveries, want one per event (%d)", len(ds), len(all))
	}
	for _, d := range ds {
		if d.Status != "succeeded" {
			t.Errorf("delivery %s of %s: %s", d.ID, d.EventType, d.Status)
		}
	}

	// Replaying the stream records that made events makes no new ones.
	replay := make([]store.Change, 0, len(all))
	for _, ev := range all {
		replay = append(replay, sourceOf(t, h, ev.Seq))
	}
	if failed := h.Env.Deps.Events().Handle(context.Background(), replay); failed != "" {
		t.Fatalf("replay failed from %s", failed)
	}
	h.Env.Drain(t)
	if again := feed(t, h.C, "", 100); len(again) != len(all) {
		t.Errorf("after a replay the feed has %d events, want %d", len(again), len(all))
	}
}

// sourceOf rebuilds the stream record an event came from: the item's
// change as the stream carried it (same kind, key and record sequence
// number), with the item as it is now.
func sourceOf(t *testing.T, h *hooked, seq int64) store.Change {
	t.Helper()
	img, err := h.Env.Deps.Table.Item(context.Background(), store.Key(store.PK(h.Acct.ID, "EV"), fmt.Sprintf("%016d", seq)), true)
	if err != nil || !img.Exists() {
		t.Fatalf("read event %d: %v", seq, err)
	}
	kind, rest, _ := cutSep(img.Text("source"))
	sk, streamSeq, _ := lastSep(rest)
	item, err := h.Env.Deps.Table.Item(context.Background(), store.Key(store.PK(h.Acct.ID, kind), sk), true)
	if err != nil {
		t.Fatal(err)
	}
	return store.Change{Seq: streamSeq, Account: h.Acct.ID, Kind: kind, SK: sk, New: item}
}

func seqs(evs []events.Event) []int64 {
	out := make([]int64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Seq
	}
	return out
}

func texts(ns []int64) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = fmt.Sprint(n)
	}
	return out
}
