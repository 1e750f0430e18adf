package webhooks_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestEveryTypeDeliveredAsTheAPIShowsIt: each event type reaches a real
// receiver, signed with the webhook's secret, and the last event of each
// resource carries what GET of that resource returns.
func TestEveryTypeDeliveredAsTheAPIShowsIt(t *testing.T) {
	t.Parallel()
	h := newHooked(t, "*")
	wh := h.Warehouse("A")
	h.Product("S")
	h.Stock("S", wh, 10)
	h.Adjust("S", wh, 12)
	doc := h.Doc("R-1", "2024-01-02", orderstest.Line("L1", "S", 3))
	doc["paid_at"] = "2024-01-02T10:00:00Z"
	seq := h.ImportOne(doc)
	if r := h.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1Z-EVENTS",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}}); r.Status != http.StatusOK {
		t.Fatalf("ship: %d %s", r.Status, r)
	}
	h.Env.RefusePushes(t, h.Acct.ID) // the channel refuses the new listing's update: listing.sync_failed
	h.Link("CH-S", "S")
	// A second channel, disconnected (as DELETE /channels/{uuid} does): channel.disconnected.
	gone, err := h.Env.Deps.Channels().Create(context.Background(), h.Acct.ID, channels.Input{Name: "Old shop", Type: "Etsy"})
	if err != nil {
		t.Fatal(err)
	}
	if r := h.C.Do(http.MethodDelete, "/channels/"+gone.UUID, nil); r.Status != http.StatusOK {
		t.Fatalf("disconnect: %d %s", r.Status, r)
	}
	// A document the channel inbox refuses for a connected channel: order.import_failed.
	h.Env.SendInbox(t, h.Acct.ID, `[{"channel_uuid":"`+h.connected()+`","display_ref":"R-REFUSED","ordered_at":"2024-01-02","items":[{"order_item_ref":"1","sku":"S","quantity":0}]}]`)
	testenv.WaitFor(t, func() bool {
		for _, typ := range events.Types {
			if len(h.rcv.ofType(typ)) == 0 {
				return false
			}
		}
		return true
	}, "a delivery of every event type")
	h.Env.AcceptPushes(h.Acct.ID) // so the listing's retries end and the stack drains
	h.Env.Drain(t)

	for _, g := range h.rcv.all() {
		if len(g.Verified) != 1 || g.ID != g.Event.ID {
			t.Errorf("delivery %s (%s): verified by %v, event id %s", g.ID, g.Event.Type, g.Verified, g.Event.ID)
		}
	}
	latest := func(typ string, match func(events.Event) bool) events.Event {
		var last events.Event
		for _, g := range h.rcv.ofType(typ) {
			if match(g.Event) && g.Event.Seq > last.Seq {
				last = g.Event
			}
		}
		return last
	}
	get := func(path string) []byte {
		r := h.C.Do(http.MethodGet, path, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, r.Status, r)
		}
		return r.Body
	}
	var adjustment struct {
		RequestID string `json:"request_id"`
	}
	if err := jsonOf(h.rcv.ofType(events.AdjustmentApplied)[0].Event.Data, &adjustment); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		typ   string
		match func(events.Event) bool
		get   func() []byte
	}{
		{events.OrderUpdated, field("sb_order_seq", fmt.Sprint(seq)), func() []byte { return get(fmt.Sprintf("/orders/%d", seq)) }},
		// The record's last event is the order's reservation, no adjustment: its change is null.
		{events.InventoryUpdated, field("sku", "S"), func() []byte { return withMember(t, only(t, get("/inventory?sku=S")), "change", nil) }},
		{events.AdjustmentApplied, every, func() []byte { return get("/inventory/adjustments/" + adjustment.RequestID) }},
		{events.ProductUpdated, field("sku", "S"), func() []byte { return get("/products/S") }},
		// A shipment's event is its creation: the tracking is still pending then.
		{events.ShipmentCreated, every, func() []byte {
			return withMember(t, only(t, get(fmt.Sprintf("/shipments?sb_order_seq=%d", seq))), "sync_status", "pending")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.typ, func(t *testing.T) {
			ev := latest(tc.typ, tc.match)
			if got, want := []byte(ev.Data), tc.get(); !sameJSON(t, got, want) {
				t.Errorf("data = %s\nGET  = %s", got, want)
			}
		})
	}
	t.Run(events.OrderCreated, func(t *testing.T) {
		if ev := latest(events.OrderCreated, field("sb_order_seq", fmt.Sprint(seq))); ev.Seq == 0 {
			t.Errorf("no order.created of order %d", seq)
		}
	})
	t.Run(events.ListingSyncFailed, func(t *testing.T) {
		ev := latest(events.ListingSyncFailed, field("channel_sku", "CH-S"))
		var l struct {
			SyncStatus string  `json:"sync_status"`
			SyncError  *string `json:"sync_error"`
		}
		if err := jsonOf(ev.Data, &l); err != nil || l.SyncStatus != "failed" || l.SyncError == nil {
			t.Errorf("listing.sync_failed data = %s", ev.Data)
		}
	})
}

// connected connects a channel of the account to a generic sandbox of its own (one of
// multisell's connectors serves it) and returns its uuid.
func (h *hooked) connected() string {
	h.T.Helper()
	connectors.Register(sandbox.GenericConnector)
	sb, err := sandbox.NewGeneric()
	if err != nil {
		h.T.Fatal(err)
	}
	h.T.Cleanup(func() { _ = sb.Close() })
	sb.AddSeller("client-hooked", "secret-hooked", "refresh-hooked")
	return h.C.ConnectChannel(map[string]any{"channel": map[string]any{"name": "Generic shop", "type": "generic",
		"credentials": map[string]any{"client_id": "client-hooked", "client_secret": "secret-hooked", "refresh_token": "refresh-hooked"},
		"endpoints":   map[string]any{"api": sb.URL, "auth": sb.URL + "/oauth/token"}}}).UUID
}
