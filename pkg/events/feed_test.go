package events_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/testenv"
)

// account is a fresh account and a client of it.
type account struct {
	t    *testing.T
	env  *testenv.Env
	acct testenv.Account
	c    *testenv.Client
}

func newAccount(t *testing.T) *account {
	t.Helper()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	return &account{t: t, env: env, acct: acct, c: env.Client(t, acct)}
}

// product upserts the product sku with name (one product.updated).
func (a *account) product(sku, name string) {
	a.t.Helper()
	if r := a.c.Do(http.MethodPut, "/products/"+sku, map[string]any{"name": name}); r.Status != http.StatusOK {
		a.t.Fatalf("PUT /products/%s: %d %s", sku, r.Status, r)
	}
}

// stock creates a warehouse and a stock record of sku in it (one
// inventory.updated).
func (a *account) stock(sku string, onHand int) {
	a.t.Helper()
	r := a.c.Do(http.MethodPost, "/warehouses", map[string]any{"warehouse": map[string]any{"name": "W " + sku}})
	if r.Status != http.StatusOK {
		a.t.Fatalf("POST /warehouses: %d %s", r.Status, r)
	}
	var wh struct {
		UUID string `json:"warehouse_uuid"`
	}
	r.JSON(a.t, &wh)
	r = a.c.Do(http.MethodPost, "/inventory", map[string]any{"inventory": []any{map[string]any{"sku": sku, "warehouse_uuid": wh.UUID, "on_hand": onHand}}})
	if r.Status != http.StatusCreated {
		a.t.Fatalf("POST /inventory: %d %s", r.Status, r)
	}
}

// page is GET /events?query, which must answer 200.
func page(t testing.TB, c *testenv.Client, query string) events.Page {
	t.Helper()
	r := c.Do(http.MethodGet, "/events?"+query, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /events?%s: %d %s", query, r.Status, r)
	}
	var p events.Page
	r.JSON(t, &p)
	return p
}

// waitFeed waits until the account's first page holds events of which
// enough returns true, and returns them.
func waitFeed(t testing.TB, c *testenv.Client, enough func([]events.Event) bool) []events.Event {
	t.Helper()
	var evs []events.Event
	testenv.WaitFor(t, func() bool {
		evs = page(t, c, "limit=100").Events
		return enough(evs)
	}, "the events of the setup")
	return evs
}

// count returns how many of evs are of type typ and match match.
func count(evs []events.Event, typ string, match func(map[string]any) bool) int {
	n := 0
	for _, ev := range evs {
		var data map[string]any
		if ev.Type == typ && json.Unmarshal(ev.Data, &data) == nil && match(data) {
			n++
		}
	}
	return n
}

// sku matches data whose sku is s.
func sku(s string) func(map[string]any) bool {
	return func(data map[string]any) bool { return data["sku"] == s }
}

// seqs returns the events' sequence numbers.
func seqs(evs []events.Event) []int64 {
	out := make([]int64, len(evs))
	for i, ev := range evs {
		out[i] = ev.Seq
	}
	return out
}

// upTo returns the events of evs up to seq last.
func upTo(evs []events.Event, last int64) []events.Event {
	return slices.DeleteFunc(slices.Clone(evs), func(ev events.Event) bool { return ev.Seq > last })
}

// TestFeedBadInput: GET /events answers an after that is not an integer
// of at least 0, an unknown type and a limit below 1 or not an integer
// with a 422 naming the parameter, never a 5xx.
func TestFeedBadInput(t *testing.T) {
	t.Parallel()
	a := newAccount(t)
	a.product("S", "Tee")
	waitFeed(t, a.c, func(evs []events.Event) bool { return len(evs) > 0 })
	cases := []struct {
		query, names string
	}{
		{"after=-1", "after"},
		{"after=-9223372036854775808", "after"},
		{"after=abc", "after"},
		{"after=1.5", "after"},
		{"after=1.0", "after"},
		{"after=1e3", "after"},
		{"after=0x10", "after"},
		{"after=", "after"},
		{"after=%20", "after"},
		{"after=1,2", "after"},
		{"after=99999999999999999999", "after"},
		{"after=evt_" + strings.Repeat("0", 32), "after"},
		{"after=%E2%91%A0", "after"}, // ①
		{"after=" + strings.Repeat("9", 3000), "after"},
		{"type=order.shipped", "type"},
		{"type=", "type"},
		{"type=*", "type"},
		{"type=%2A", "type"},
		{"type=ORDER.CREATED", "type"},
		{"type=order.created%20", "type"},
		{"type=webhook.ping", "type"},
		{"type=order.created,order.updated", "type"},
		{"type=%C3%BC%F0%9F%98%80", "type"},
		{"type=" + strings.Repeat("x", 3000), "type"},
		{"limit=0", "limit"},
		{"limit=-1", "limit"},
		{"limit=abc", "limit"},
		{"limit=1.5", "limit"},
		{"limit=", "limit"},
		{"after=1&type=nope", "type"},
		{"after=nope&type=" + events.OrderCreated, "after"},
		{"after=1&type=" + events.OrderCreated + "&limit=0", "limit"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			t.Parallel()
			r := a.env.Client(t, a.acct).Do(http.MethodGet, "/events?"+tc.query, nil)
			if got, want := r.Status, http.StatusUnprocessableEntity; got != want || !strings.Contains(r.String(), `"error":"`+tc.names+" must") {
				t.Errorf("GET /events?%s: got %d %s, want %d naming %s", tc.query, got, r, want, tc.names)
			}
		})
	}
}

// TestFeedReads: a new account's feed is numbered from 1 without gaps,
// oldest first; next_after is the last seq returned (or after when none);
// reading on from next_after, a page of any size, misses nothing and
// repeats nothing; type filters the same events; after past the end is an
// empty page.
func TestFeedReads(t *testing.T) {
	t.Parallel()
	a := newAccount(t)
	for _, s := range []string{"A", "B", "C"} {
		a.product(s, "Product "+s)
	}
	a.product("A", "Product A, renamed")
	a.stock("B", 4)
	all := waitFeed(t, a.c, func(evs []events.Event) bool {
		return count(evs, events.ProductUpdated, sku("A")) >= 2 && count(evs, events.ProductUpdated, sku("C")) >= 1 &&
			count(evs, events.InventoryUpdated, sku("B")) >= 1
	})
	last := all[len(all)-1].Seq

	t.Run("numbered from 1 without gaps", func(t *testing.T) {
		for i, ev := range all {
			if got, want := ev.Seq, int64(i+1); got != want {
				t.Fatalf("event %d has seq %d, want %d: %v", i, got, want, seqs(all))
			}
		}
	})
	t.Run("events", func(t *testing.T) {
		ids := map[string]bool{}
		for _, ev := range all {
			if !strings.HasPrefix(ev.ID, "evt_") || ids[ev.ID] {
				t.Errorf("event %d: id %q is not a new evt_ id", ev.Seq, ev.ID)
			}
			ids[ev.ID] = true
			if !events.KnownType(ev.Type) {
				t.Errorf("event %d: type %q", ev.Seq, ev.Type)
			}
			if _, err := time.Parse(time.RFC3339, ev.CreatedAt); err != nil || !strings.HasSuffix(ev.CreatedAt, "Z") {
				t.Errorf("event %d: created_at %q", ev.Seq, ev.CreatedAt)
			}
			var data map[string]any
			if err := json.Unmarshal(ev.Data, &data); err != nil {
				t.Errorf("event %d: data %s is not an object", ev.Seq, ev.Data)
			}
		}
		var latestA events.Event
		for _, ev := range all {
			if count([]events.Event{ev}, events.ProductUpdated, sku("A")) == 1 {
				latestA = ev
			}
		}
		var data struct{ Name string }
		if err := json.Unmarshal(latestA.Data, &data); err != nil || data.Name != "Product A, renamed" {
			t.Errorf("the last product.updated of A has %s, want the new name", latestA.Data)
		}
	})
	t.Run("next_after", func(t *testing.T) {
		for _, q := range []string{"", "after=0", "limit=1", "after=1&limit=2"} {
			p := page(t, a.c, q)
			if len(p.Events) == 0 {
				t.Fatalf("GET /events?%s is empty", q)
			}
			if got, want := p.NextAfter, p.Events[len(p.Events)-1].Seq; got != want {
				t.Errorf("GET /events?%s: next_after %d, want the last seq %d", q, got, want)
			}
		}
	})
	t.Run("pages", func(t *testing.T) {
		for _, limit := range []int{1, 2, 3, 100, 1000} {
			var got []events.Event
			after := int64(0)
			for after < last {
				p := page(t, a.c, fmt.Sprintf("after=%d&limit=%d", after, limit))
				if len(p.Events) == 0 || len(p.Events) > limit {
					t.Fatalf("limit %d after %d: %d events", limit, after, len(p.Events))
				}
				if p.Events[0].Seq != after+1 {
					t.Fatalf("limit %d after %d: the page starts at %d", limit, after, p.Events[0].Seq)
				}
				got = append(got, p.Events...)
				after = p.NextAfter
			}
			if got, want := seqs(upTo(got, last)), seqs(all); !slices.Equal(got, want) {
				t.Errorf("limit %d: read %v, want %v", limit, got, want)
			}
		}
	})
	t.Run("after", func(t *testing.T) {
		mid := last / 2
		p := page(t, a.c, fmt.Sprintf("after=%d", mid))
		if got, want := seqs(upTo(p.Events, last)), seqs(all[mid:]); !slices.Equal(got, want) {
			t.Errorf("after=%d: %v, want %v", mid, got, want)
		}
		for _, q := range []string{"after=1000000", "after=%201000000%20", "after=+1000000", "after=9223372036854775807"} {
			want := int64(1000000)
			if strings.HasSuffix(q, "807") {
				want = 1<<63 - 1
			}
			p := page(t, a.c, q)
			if len(p.Events) != 0 || p.NextAfter != want {
				t.Errorf("GET /events?%s: %d events, next_after %d; want none and %d", q, len(p.Events), p.NextAfter, want)
			}
		}
	})
	t.Run("type", func(t *testing.T) {
		for _, typ := range events.Types {
			want := slices.DeleteFunc(slices.Clone(all), func(ev events.Event) bool { return ev.Type != typ })
			p := page(t, a.c, "type="+typ)
			if got := upTo(p.Events, last); !slices.EqualFunc(got, want, sameEvent) {
				t.Errorf("type=%s: %v, want %v", typ, seqs(got), seqs(want))
			}
			if len(want) < 2 {
				continue
			}
			// Pages of one type, after an event of any type.
			p = page(t, a.c, fmt.Sprintf("type=%s&after=%d&limit=1", typ, want[0].Seq))
			if len(p.Events) != 1 || !sameEvent(p.Events[0], want[1]) || p.NextAfter != want[1].Seq {
				t.Errorf("type=%s after %d: %v next_after %d, want [%d]", typ, want[0].Seq, seqs(p.Events), p.NextAfter, want[1].Seq)
			}
		}
	})
}

// sameEvent reports whether two reads of an event agree.
func sameEvent(a, b events.Event) bool {
	return a.Seq == b.Seq && a.ID == b.ID && a.Type == b.Type && a.CreatedAt == b.CreatedAt && string(a.Data) == string(b.Data)
}

// TestFeedLimitCapped: a page holds at most 100 events, whatever the
// limit asks (a limit beyond any integer type too), with or without type.
func TestFeedLimitCapped(t *testing.T) {
	t.Parallel()
	a := newAccount(t)
	for i := range 105 {
		a.product(fmt.Sprintf("P%03d", i), "Product")
	}
	waitFeed(t, a.c, func(evs []events.Event) bool { return len(evs) == 100 })
	for _, q := range []string{"", "limit=100", "limit=101", "limit=1000", "limit=99999999999999999999", "type=" + events.ProductUpdated + "&limit=500"} {
		p := page(t, a.c, q)
		if got, want := len(p.Events), 100; got != want {
			t.Errorf("GET /events?%s: %d events, want %d", q, got, want)
			continue
		}
		if got, want := p.NextAfter, p.Events[99].Seq; got != want {
			t.Errorf("GET /events?%s: next_after %d, want %d", q, got, want)
		}
	}
	testenv.WaitFor(t, func() bool { return len(page(t, a.c, "after=100").Events) >= 5 }, "the last products' events")
}

// TestFeedIsolation: each account's feed holds its own events only,
// numbered from 1 for each account, whatever the filters.
func TestFeedIsolation(t *testing.T) {
	t.Parallel()
	a, b := newAccount(t), newAccount(t)
	a.product("S", "A's product")
	a.stock("S", 3)
	b.product("S", "B's product")
	enough := func(evs []events.Event) bool {
		return count(evs, events.ProductUpdated, sku("S")) >= 1 && count(evs, events.InventoryUpdated, sku("S")) >= 1
	}
	aFeed := waitFeed(t, a.c, enough)
	bFeed := waitFeed(t, b.c, func(evs []events.Event) bool { return count(evs, events.ProductUpdated, sku("S")) >= 1 })
	a.env.Drain(t)
	ids := map[string]bool{}
	for _, ev := range aFeed {
		ids[ev.ID] = true
	}
	for _, q := range append([]string{"", "after=0", "limit=100"}, func() []string {
		var qs []string
		for _, typ := range events.Types {
			qs = append(qs, "type="+typ)
		}
		return qs
	}()...) {
		for _, ev := range page(t, b.c, q).Events {
			if ids[ev.ID] || strings.Contains(string(ev.Data), "A's product") {
				t.Errorf("B's GET /events?%s has A's event %d %s: %s", q, ev.Seq, ev.Type, ev.Data)
			}
			if ev.Type == events.InventoryUpdated {
				t.Errorf("B's GET /events?%s has an inventory event, which only A made: %s", q, ev.Data)
			}
		}
	}
	for name, feed := range map[string][]events.Event{"A": aFeed, "B": bFeed} {
		if feed[0].Seq != 1 {
			t.Errorf("%s's feed starts at %d, want 1", name, feed[0].Seq)
		}
	}
	for _, ev := range page(t, a.c, "limit=100").Events {
		if strings.Contains(string(ev.Data), "B's product") {
			t.Errorf("A's feed has B's event %d: %s", ev.Seq, ev.Data)
		}
	}
}
