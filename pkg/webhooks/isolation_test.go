package webhooks_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/webhooks"
)

// TestIsolation: account B never sees account A's events, webhooks or
// deliveries, cannot read, change, delete, rotate, ping or retry A's
// webhook (404, as if it did not exist, and A's webhook is unchanged),
// and no event of A is delivered to B's webhook, even one that wants
// every type.
func TestIsolation(t *testing.T) {
	t.Parallel()
	a := newHooked(t, "*")
	env := a.Env
	bAcct := env.NewAccount(t, testenv.AccountOptions{})
	b := env.Client(t, bAcct)
	bRcv := newReceiver(t)
	r := b.Do(http.MethodPost, "/webhooks", map[string]any{"webhook": map[string]any{"url": bRcv.URL(), "events": []string{"*"}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("B's webhook: %d %s", r.Status, r)
	}
	var bHook struct{ Webhook webhooks.Webhook }
	r.JSON(t, &bHook)
	bRcv.trust(bHook.Webhook.Secret)

	// A's events: a product, a stock record and an adjustment of it.
	wh := a.Warehouse("A")
	a.Product("S")
	a.Stock("S", wh, 5)
	// The adjustment through the API, without orderstest's Adjust.
	if r := a.C.Do(http.MethodPut, "/inventory", map[string]any{"inventory": []any{
		map[string]any{"sku": "S", "warehouse_uuid": wh, "on_hand": 7}}}); r.Status != http.StatusOK {
		t.Fatalf("adjust: %d %s", r.Status, r)
	}
	// Env.Drain is no barrier here: it does not wait for the deliveries of
	// the events the events function records (TestDrainWaitsForDeliveries),
	// and it waits on the work of every test, which a test whose channel
	// refuses pushes keeps queued for longer than its 30 s. The barrier is
	// A's webhook done with every event of A's feed, whose fan-out is the
	// one that would have made B's deliveries, and then with one event more.
	var aFeed []events.Event
	settle := func(last func(events.Event) bool, what string) {
		testenv.WaitFor(t, func() bool {
			aFeed = feed(t, a.C, "", 100)
			return slices.ContainsFunc(aFeed, last) && done(a.deliveries(a.hook.ID, ""), len(aFeed))
		}, what)
	}
	settle(func(ev events.Event) bool { return ev.Type == events.AdjustmentApplied }, "A's deliveries of A's events")
	a.Product("U")
	settle(field("sku", "U"), "A's delivery of product U")
	for _, typ := range []string{events.ProductUpdated, events.InventoryUpdated, events.AdjustmentApplied} {
		if !slices.ContainsFunc(aFeed, func(ev events.Event) bool { return ev.Type == typ }) {
			t.Fatalf("A's feed has no %s: %+v", typ, aFeed)
		}
	}
	aDeliveries := a.deliveries(a.hook.ID, "")
	aDelivery := aDeliveries[0].ID
	snapshot := func() []string {
		return []string{
			a.C.Do(http.MethodGet, "/webhooks", nil).String(),
			a.C.Do(http.MethodGet, "/webhooks/"+a.hook.ID, nil).String(),
			a.C.Do(http.MethodGet, "/webhooks/"+a.hook.ID+"/deliveries", nil).String(),
		}
	}
	before := snapshot()

	t.Run("A's receiver got A's events", func(t *testing.T) {
		for _, ev := range aFeed {
			got := a.rcv.withID(ev.ID)
			if len(got) == 0 {
				t.Errorf("event %d (%s) was not delivered to A", ev.Seq, ev.Type)
				continue
			}
			if len(got[0].Verified) != 1 {
				t.Errorf("event %d reached A unverified by A's secret", ev.Seq)
			}
		}
	})
	t.Run("B's feed", func(t *testing.T) {
		for _, q := range []string{"", "&type=" + events.ProductUpdated, "&type=" + events.InventoryUpdated, "&type=" + events.AdjustmentApplied} {
			if got := feed(t, b, q, 100); len(got) != 0 {
				t.Errorf("B's feed%s has %d events: %+v", q, len(got), got)
			}
		}
		var page events.Page
		b.Do(http.MethodGet, "/events?after=0", nil).JSON(t, &page)
		if got, want := page.NextAfter, int64(0); got != want || len(page.Events) != 0 {
			t.Errorf("B's feed: %d events, next_after %d, want none and %d", len(page.Events), got, want)
		}
	})
	t.Run("B's webhooks", func(t *testing.T) {
		var list struct{ Webhooks []webhooks.Webhook }
		b.Do(http.MethodGet, "/webhooks", nil).JSON(t, &list)
		if len(list.Webhooks) != 1 || list.Webhooks[0].ID != bHook.Webhook.ID {
			t.Errorf("B lists %+v, want only its own webhook", list.Webhooks)
		}
	})
	t.Run("B's receiver and deliveries", func(t *testing.T) {
		if got := bRcv.all(); len(got) != 0 {
			t.Errorf("B's receiver got %d deliveries: %+v", len(got), got)
		}
		var list struct{ Deliveries []webhooks.Delivery }
		b.Do(http.MethodGet, "/webhooks/"+bHook.Webhook.ID+"/deliveries", nil).JSON(t, &list)
		if len(list.Deliveries) != 0 {
			t.Errorf("B's webhook has deliveries: %+v", list.Deliveries)
		}
	})

	aHook := "/webhooks/" + a.hook.ID
	cases := []struct {
		name, method, path string
		body               any
		want               string
	}{
		{"get", http.MethodGet, aHook, nil, webhooks.NotFoundMessage},
		{"update url", http.MethodPut, aHook, map[string]any{"webhook": map[string]any{"url": bRcv.URL()}}, webhooks.NotFoundMessage},
		{"deactivate", http.MethodPut, aHook, map[string]any{"webhook": map[string]any{"active": false}}, webhooks.NotFoundMessage},
		{"delete", http.MethodDelete, aHook, nil, webhooks.NotFoundMessage},
		{"rotate", http.MethodPost, aHook + "/rotate_secret", nil, webhooks.NotFoundMessage},
		{"ping", http.MethodPost, aHook + "/ping", nil, webhooks.NotFoundMessage},
		{"deliveries", http.MethodGet, aHook + "/deliveries", nil, webhooks.NotFoundMessage},
		{"retry", http.MethodPost, aHook + "/deliveries/" + aDelivery + "/retry", nil, webhooks.NotFoundMessage},
		{"retry on B's webhook", http.MethodPost, "/webhooks/" + bHook.Webhook.ID + "/deliveries/" + aDelivery + "/retry", nil, webhooks.DeliveryNotFoundMessage},
	}
	t.Run("B on A's webhook", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				r := env.Client(t, bAcct).Do(tc.method, tc.path, tc.body)
				if got, want := r.Status, http.StatusNotFound; got != want || !strings.Contains(r.String(), tc.want) {
					t.Errorf("B %s %s: got %d %s, want %d %q", tc.method, tc.path, got, r, want, tc.want)
				}
			})
		}
	})

	// What B's requests would have changed of A's webhook they would have
	// changed at once (a ping or a retry writes its delivery before
	// answering).
	after := snapshot()
	for i := range before {
		if got, want := after[i], before[i]; got != want {
			t.Errorf("B changed A's webhook:\n got %s\nwant %s", got, want)
		}
	}
	// A's webhook still signs with A's secret alone: B's rotation did not
	// happen.
	a.Product("T")
	testenv.WaitFor(t, func() bool {
		return slices.ContainsFunc(a.rcv.ofType(events.ProductUpdated), func(g received) bool { return field("sku", "T")(g.Event) })
	}, "A's delivery of product T")
	for _, g := range a.rcv.all() {
		if len(g.Verified) != 1 || len(signatures(g.Signature)) != 1 {
			t.Errorf("delivery %s (%s) after B's requests: verified by %v, signature %q; want A's secret alone", g.ID, g.Event.Type, g.Verified, g.Signature)
		}
	}
	// By now a ping B could have sent to A's webhook would have arrived.
	if got := a.rcv.ofType(webhooks.PingType); len(got) != 0 {
		t.Errorf("A's receiver got a ping from B: %+v", got)
	}
	if got := bRcv.all(); len(got) != 0 {
		t.Errorf("B's receiver got %d deliveries after B's requests", len(got))
	}
}

// done reports whether there are n deliveries, none of them pending.
func done(ds []webhooks.Delivery, n int) bool {
	if len(ds) != n {
		return false
	}
	for _, d := range ds {
		if d.Status == webhooks.StatusPending {
			return false
		}
	}
	return true
}

// TestDrainWaitsForDeliveries: Env.Drain returns once the work of what was
// written before it is done, "including the work the consumers cause each
// other": here the events function records a product's event, which it
// then fans out to a delivery, which it sends to the delivery queue. The
// isolation test's "B got nothing" is only meaningful if Drain waits for
// that chain.
func TestDrainWaitsForDeliveries(t *testing.T) {
	t.Parallel()
	h := newHooked(t, "*")
	h.Product("S")
	h.Env.Drain(t)
	ds := h.deliveries(h.hook.ID, "")
	if got, want := len(ds), 1; got != want || !done(ds, want) {
		t.Errorf("after Drain: %d deliveries %+v, want %d done", got, ds, want)
	}
	if got := h.rcv.ofType(events.ProductUpdated); len(got) != 1 {
		t.Errorf("after Drain the receiver got %d product.updated, want 1", len(got))
	}
	// Leave no delivery retrying to the receiver closed when the test ends.
	testenv.WaitFor(t, func() bool { return done(h.deliveries(h.hook.ID, ""), 1) }, "the delivery")
}
