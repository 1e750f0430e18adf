package inventory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/inventory"
)

// delta is a JSON item of a PATCH that adds d to on_hand.
func delta(sku, wh string, d int, extra ...string) string {
	return fmt.Sprintf(`{"sku":%s,"warehouse_uuid":%s,"on_hand_delta":%d%s}`, quoteJSON(sku), quoteJSON(wh), d, strings.Join(extra, ""))
}

// history GETs one page of the record's history with the extra query.
func (f *fixture) history(sku, wh, query string) []inventory.Change {
	f.t.Helper()
	r := f.c.Do(http.MethodGet, "/inventory/history?sku="+url.QueryEscape(sku)+"&warehouse_uuid="+wh+query, nil)
	if r.Status != http.StatusOK {
		f.t.Fatalf("GET /inventory/history: %d %s", r.Status, r.Body)
	}
	var out []inventory.Change
	r.JSON(f.t, &out)
	return out
}

// allHistory reads every page of the record's history, newest first.
func (f *fixture) allHistory(sku, wh string) []inventory.Change {
	f.t.Helper()
	var all []inventory.Change
	for page := 1; ; page++ {
		got := f.history(sku, wh, fmt.Sprintf("&limit=100&page=%d", page))
		all = append(all, got...)
		if len(got) < 100 {
			return all
		}
	}
}

// TestConcurrentDeltas: 20 writers each add +1 and -1 in random order, 50
// deltas each (10 PATCHes of one delta per SKU), at once: every delta is
// applied (none superseded), the records end where they started, and the
// history lists every change, its deltas summing to nothing.
func TestConcurrentDeltas(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	skus := []string{"A", "B", "C", "D", "E"}
	const writers, rounds, start = 20, 10, 100
	for _, s := range skus {
		f.create(record(s, w, start))
	}
	var mu sync.Mutex
	var ids []string
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(g), 3))
			signs := map[string][]int{}
			for _, s := range skus {
				for k := range rounds {
					signs[s] = append(signs[s], 1-2*(k%2)) // as many +1 as -1
				}
				rnd.Shuffle(rounds, func(i, j int) { signs[s][i], signs[s][j] = signs[s][j], signs[s][i] })
			}
			for k := range rounds {
				var items []string
				for _, s := range skus {
					items = append(items, delta(s, w, signs[s][k], `,"reason":"transfer","reference":"W-`+fmt.Sprint(g)+`"`))
				}
				id := f.adjust(http.MethodPatch, body(items...))
				mu.Lock()
				ids = append(ids, id)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, id := range ids {
		for _, r := range f.applied(id).Items {
			if r.Result != inventory.ResultApplied {
				t.Errorf("%s: %+v, want applied", id, r)
			}
		}
	}
	for _, s := range skus {
		check(t, f.get(s, w), start, 0, start)
		hist := f.allHistory(s, w)
		if got, want := len(hist), writers*rounds; got != want {
			t.Errorf("%s: %d changes in the history, want %d", s, got, want)
		}
		sum := 0
		for _, c := range hist {
			sum += int(c.Delta)
			if c.Delta != 1 && c.Delta != -1 || c.After-c.Before != c.Delta || c.Reason == nil || *c.Reason != "transfer" || c.Reference == nil {
				t.Errorf("%s: change %+v", s, c)
			}
		}
		if sum != 0 {
			t.Errorf("%s: deltas sum to %d, want 0", s, sum)
		}
	}
}

// TestCompareAndSet: if_on_hand applies an item only while on_hand is
// that value; a stale one is a conflict reporting the current quantities
// and changes nothing.
func TestCompareAndSet(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 5))
	tests := []struct {
		name   string
		method string
		item   string
		want   string
		onHand int64
	}{
		{"fresh absolute", http.MethodPatch, record("A", w, 7, `,"if_on_hand":5`), inventory.ResultApplied, 7},
		{"stale delta", http.MethodPatch, delta("A", w, 1, `,"if_on_hand":5`), inventory.ResultConflict, 7},
		{"stale absolute by PUT", http.MethodPut, record("A", w, 9, `,"if_on_hand":5`), inventory.ResultConflict, 7},
		{"fresh delta", http.MethodPatch, delta("A", w, -2, `,"if_on_hand":7`), inventory.ResultApplied, 5},
		{"PUT of a missing record", http.MethodPut, record("NEW", w, 1, `,"if_on_hand":0`), inventory.ResultConflict, 0},
	}
	for _, tt := range tests { // in order: each starts where the last ended
		st := f.applied(f.adjust(tt.method, body(tt.item)))
		got := st.Items[0]
		if got.Result != tt.want {
			t.Errorf("%s: %+v, want %s", tt.name, got, tt.want)
		}
		if got.Result == inventory.ResultConflict && (got.Reason == "" || got.SKU == "A" && (got.OnHand == nil || *got.OnHand != tt.onHand)) {
			t.Errorf("%s: conflict %+v does not report the current on_hand %d", tt.name, got, tt.onHand)
		}
	}
	check(t, f.get("A", w), 5, 0, 5)
	if got := f.list("sku=NEW"); len(got) != 0 {
		t.Errorf("a conflicting PUT created its record: %+v", got)
	}
	if got := len(f.allHistory("A", w)); got != 2 {
		t.Errorf("%d changes in the history, want the 2 applied", got)
	}
}

// TestHistory lists every change of a record newest first, however it
// was given (PUT creating, delta, available, on_hand), with its reason
// and reference, before and after chaining, a page at a time.
func TestHistory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	steps := []struct {
		method, item string
	}{
		{http.MethodPut, record("A", w, 10, `,"reason":"received","reference":"PO-1"`)},
		{http.MethodPatch, delta("A", w, 3, `,"reason":"returned","reference":"RMA-7"`)},
		{http.MethodPatch, delta("A", w, -4, `,"reason":"damaged"`)},
		{http.MethodPatch, `{"sku":"A","warehouse_uuid":"` + w + `","available":2,"reason":"counted"}`},
		{http.MethodPatch, record("A", w, 6)},
	}
	var ids []string
	for _, s := range steps {
		ids = append(ids, f.adjust(s.method, body(s.item)))
		f.applied(ids[len(ids)-1])
	}
	ref := func(s string) *string { return &s }
	want := []inventory.Change{
		{RequestID: ids[4], Before: 2, After: 6, Delta: 4},
		{RequestID: ids[3], Before: 9, After: 2, Delta: -7, Reason: ref("counted")},
		{RequestID: ids[2], Before: 13, After: 9, Delta: -4, Reason: ref("damaged")},
		{RequestID: ids[1], Before: 10, After: 13, Delta: 3, Reason: ref("returned"), Reference: ref("RMA-7")},
		{RequestID: ids[0], Before: 0, After: 10, Delta: 10, Reason: ref("received"), Reference: ref("PO-1")},
	}
	var got []inventory.Change
	for page := 1; page <= 3; page++ {
		got = append(got, f.history("A", w, fmt.Sprintf("&limit=2&page=%d", page))...)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes, want %d: %+v", len(got), len(want), got)
	}
	sum := int64(0)
	for i, g := range got {
		sum += g.Delta
		w := want[i]
		if g.RequestID != w.RequestID || g.Before != w.Before || g.After != w.After || g.Delta != w.Delta ||
			fmt.Sprint(deref(g.Reason), deref(g.Reference)) != fmt.Sprint(deref(w.Reason), deref(w.Reference)) || g.At == "" {
			t.Errorf("change %d: got %+v, want %+v", i, g, w)
		}
	}
	if sum != 6 {
		t.Errorf("deltas sum to %d, want the change 0 -> 6", sum)
	}
	t.Run("another account", func(t *testing.T) {
		other := newFixture(t)
		r := other.c.Do(http.MethodGet, "/inventory/history?sku=A&warehouse_uuid="+w, nil)
		if r.Status != http.StatusNotFound {
			t.Errorf("got %d %s, want 404", r.Status, r.Body)
		}
	})
	t.Run("bad input", func(t *testing.T) {
		for _, q := range []string{"", "sku=A", "warehouse_uuid=" + w, "sku=%07&warehouse_uuid=" + w, "sku=A&warehouse_uuid=+"} {
			r := f.c.Do(http.MethodGet, "/inventories/history?"+q, nil)
			if r.Status != http.StatusUnprocessableEntity {
				t.Errorf("?%s: got %d %s, want 422", q, r.Status, r.Body)
			}
		}
	})
	t.Run("unknown record", func(t *testing.T) {
		r := f.c.Do(http.MethodGet, "/inventory/history?sku=B&warehouse_uuid="+w, nil)
		if r.Status != http.StatusNotFound || errorMessage(t, r) != inventory.NotFoundMessage {
			t.Errorf("got %d %s, want 404 %q", r.Status, r.Body, inventory.NotFoundMessage)
		}
	})
}

// deref is the text of s, "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestDeltaBadInput: the changes' fields refused with a 422 naming the
// field, and nothing applied.
func TestDeltaBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 5))
	tests := []struct {
		name, method, item, field string
	}{
		{"on_hand and delta", http.MethodPatch, delta("A", w, 1, `,"on_hand":1`), "inventory[1].on_hand_delta"},
		{"negative result", http.MethodPatch, delta("A", w, -6), "inventory[1].on_hand_delta"},
		{"delta by PUT", http.MethodPut, delta("A", w, 1), "inventory[1].on_hand_delta"},
		{"delta by POST", http.MethodPost, delta("B", w, 1), "inventory[1].on_hand_delta"},
		{"unknown reason", http.MethodPatch, delta("A", w, 1, `,"reason":"lost"`), "inventory[1].reason"},
		{"oversize reference", http.MethodPatch, delta("A", w, 1, `,"reference":"`+strings.Repeat("x", 256)+`"`), "inventory[1].reference"},
		{"negative if_on_hand", http.MethodPatch, record("A", w, 1, `,"if_on_hand":-1`), "inventory[1].if_on_hand"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// After a valid item, which is not applied either.
			r := f.c.Do(tt.method, "/inventory", body(record("Z", w, 9), tt.item))
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(errorMessage(t, r), tt.field) {
				t.Errorf("got %d %s, want 422 naming %s", r.Status, r.Body, tt.field)
			}
		})
	}
	f.applied(f.adjust(http.MethodPatch, body(record("A", w, 5))))
	check(t, f.get("A", w), 5, 0, 5)
	if got := len(f.allHistory("A", w)); got != 1 {
		t.Errorf("%d changes in the history, want only the last PATCH's", got)
	}
}

// TestDeltaRejectedWhenApplied: a delta that was valid when accepted but
// would make on_hand negative when applied is rejected with the current
// quantities, and a delta of a request accepted before the one that last
// set the record is applied once, however often it is delivered.
func TestDeltaRejectedWhenApplied(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 5))
	ctx := context.Background()
	svc := f.env.Deps.Inventory()
	minus, plus, set := int64(-6), int64(2), int64(8)
	older, newer := inventory.NewRequestID(f.acct.ID), inventory.NewRequestID(f.acct.ID)
	apply := func(id string, it inventory.Item) inventory.Result {
		t.Helper()
		res, err := svc.Apply(ctx, inventory.Adjustment{RequestID: id, Account: f.acct.ID, Method: inventory.MethodPatch, Items: []inventory.Item{it}})
		if err != nil {
			t.Fatal(err)
		}
		return res[0]
	}
	if got := apply(inventory.NewRequestID(f.acct.ID), inventory.Item{SKU: "A", Warehouse: w, OnHandDelta: &minus}); got.Result != inventory.ResultRejected || *got.OnHand != 5 || got.Reason == "" {
		t.Errorf("negative delta: %+v", got)
	}
	apply(newer, inventory.Item{SKU: "A", Warehouse: w, OnHand: &set})
	for range 2 { // the second is a redelivery
		if got := apply(older, inventory.Item{SKU: "A", Warehouse: w, OnHandDelta: &plus}); got.Result != inventory.ResultApplied || *got.OnHand != 10 {
			t.Errorf("late delta: %+v", got)
		}
	}
	check(t, f.get("A", w), 10, 0, 10)
	if got := len(f.allHistory("A", w)); got != 2 {
		t.Errorf("%d changes in the history, want 2", got)
	}
}
