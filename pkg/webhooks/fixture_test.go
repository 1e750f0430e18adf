package webhooks_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
	"github.com/multisell/multisell/pkg/webhooks"
)

// hooked is an orders fixture (a fresh account with a channel) with a
// receiver and a webhook to it.
type hooked struct {
	*orderstest.Fixture
	rcv  *receiver
	hook webhooks.Webhook
}

// newHooked makes a fixture whose webhook to a new receiver wants types.
func newHooked(t *testing.T, types ...string) *hooked {
	t.Helper()
	f := orderstest.New(t)
	h := &hooked{Fixture: f, rcv: newReceiver(t)}
	h.hook = h.create(types...)
	h.rcv.trust(h.hook.Secret)
	return h
}

// create makes a webhook to the receiver and returns it with its secret.
func (h *hooked) create(types ...string) webhooks.Webhook {
	h.T.Helper()
	r := h.C.Do(http.MethodPost, "/webhooks", map[string]any{"webhook": map[string]any{"url": h.rcv.URL(), "events": types, "description": "test receiver"}})
	if r.Status != http.StatusCreated {
		h.T.Fatalf("create webhook: %d %s", r.Status, r)
	}
	var out struct{ Webhook webhooks.Webhook }
	r.JSON(h.T, &out)
	return out.Webhook
}

// deliveries is GET /webhooks/{id}/deliveries?query.
func (h *hooked) deliveries(id, query string) []webhooks.Delivery {
	h.T.Helper()
	r := h.C.Do(http.MethodGet, "/webhooks/"+id+"/deliveries?"+query, nil)
	if r.Status != http.StatusOK {
		h.T.Fatalf("GET deliveries: %d %s", r.Status, r)
	}
	var out struct{ Deliveries []webhooks.Delivery }
	r.JSON(h.T, &out)
	return out.Deliveries
}

// feed reads the whole feed from seq after, a page of limit at a time.
func feed(t testing.TB, c *testenv.Client, query string, limit int) []events.Event {
	t.Helper()
	var all []events.Event
	after := int64(0)
	for {
		r := c.Do(http.MethodGet, fmt.Sprintf("/events?after=%d&limit=%d%s", after, limit, query), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET /events: %d %s", r.Status, r)
		}
		var page events.Page
		r.JSON(t, &page)
		all = append(all, page.Events...)
		if len(page.Events) == 0 {
			if page.NextAfter != after {
				t.Errorf("an empty page's next_after = %d, want %d", page.NextAfter, after)
			}
			return all
		}
		if want := page.Events[len(page.Events)-1].Seq; page.NextAfter != want {
			t.Errorf("next_after = %d, want the last seq %d", page.NextAfter, want)
		}
		after = page.NextAfter
	}
}

// sameJSON reports whether two JSON documents hold the same value, and
// renders both for a message.
func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v: %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return reflect.DeepEqual(x, y)
}
