package channels_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestConnectedChannelEndToEnd drives a channel connected through the API (POST
// /v1/channels, on the generic sandbox) through the whole wired stack: a stock change reaches
// the sandbox's listing through the connector queue and the listing ends synced; a poll of the
// schedule imports the sandbox's new order once, however often it runs, and a change of it
// made on the marketplace updates the same order; a shipment reaches
// the sandbox as a fulfillment; after DELETE, stock changes and polls reach it no more.
func TestConnectedChannelEndToEnd(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	sb := marketplace(t)
	seller, ch := connectSeller(t, f, sb)

	wh := f.Warehouse("A")
	f.Product("E2E-1")
	f.Stock("E2E-1", wh, 7)
	if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch, "channel_sku": "E2E-1", "sku": "E2E-1"}}); r.Status != http.StatusOK {
		t.Fatalf("link: %d %s", r.Status, r)
	}
	synced := func(want int64) func() bool {
		return func() bool {
			q, ok := sb.Quantity(seller, "E2E-1")
			var ls []listings.Listing
			f.C.Do(http.MethodGet, "/listings?channel_uuid="+ch, nil).JSON(t, &ls)
			return ok && q == want && len(ls) == 1 && ls[0].SyncStatus == "synced"
		}
	}
	testenv.WaitFor(t, synced(7), "the sandbox's listing at 7, synced")
	f.Adjust("E2E-1", wh, 4)
	testenv.WaitFor(t, synced(4), "the sandbox's listing at 4, synced")

	// An order placed on the marketplace, then two schedule ticks: imported once.
	place := func(ref string, notes ...string) {
		doc, err := json.Marshal(map[string]any{"channel_uuid": ch, "display_ref": ref, "ordered_at": "2026-11-26T10:00:00Z",
			"customer_notes": strings.Join(notes, " "), "items": []any{orderstest.Line("L1", "E2E-1", 1)}})
		if err != nil {
			t.Fatal(err)
		}
		sb.PutOrder(seller, sandbox.GenericOrder{ID: ref, UpdatedAt: time.Now().UTC(), Document: doc})
	}
	refs := func() []string {
		var out []string
		for _, o := range f.List("/orders") {
			out = append(out, o.DisplayRef)
		}
		return out
	}
	place("G-1001")
	tick := schedule(t, f.Env)
	tick()
	testenv.WaitFor(t, func() bool { return len(refs()) == 1 }, "the polled order imported")
	tick()
	f.Env.Drain(t)
	if got := refs(); !slices.Equal(got, []string{"G-1001"}) {
		t.Fatalf("orders after a second poll: %v, want [G-1001]", got)
	}
	list := f.List("/orders")

	// Changed on the marketplace: the next poll updates the same order.
	place("G-1001", "leave at the door")
	tick()
	testenv.WaitFor(t, func() bool {
		o := f.Order(list[0].Seq)
		return o.CustomerNotes != nil && *o.CustomerNotes == "leave at the door"
	}, "the changed order updated")
	if got := refs(); !slices.Equal(got, []string{"G-1001"}) {
		t.Fatalf("orders after the change: %v, want [G-1001]", got)
	}

	// Its shipment reaches the sandbox as tracking.
	if r := f.Ship(map[string]any{"sb_order_seq": list[0].Seq, "carrier_name": "UPS", "tracking_number": "1ZE2E",
		"warehouse_uuid": wh, "items": []any{map[string]any{"sku": "E2E-1", "quantity": 1}}}); r.Status != http.StatusOK {
		t.Fatalf("ship: %d %s", r.Status, r)
	}
	testenv.WaitFor(t, func() bool {
		got := sb.Fulfillments(seller, "G-1001")
		return len(got) == 1 && got[0].TrackingNumber == "1ZE2E"
	}, "the tracking on the sandbox's order")
	var conn []channels.Channel
	f.C.Do(http.MethodGet, "/channels", nil).JSON(t, &conn)
	for _, c := range conn {
		if c.UUID == ch && (c.Connection.LastOrderPollAt == nil || c.Connection.LastPushAt == nil) {
			t.Errorf("connection after a poll and pushes: %+v, want last_order_poll_at and last_push_at", c.Connection)
		}
	}

	// Disconnected: nothing reaches the sandbox any more.
	f.Env.Drain(t)
	before, _ := sb.Quantity(seller, "E2E-1")
	if r := f.C.Do(http.MethodDelete, "/channels/"+ch, nil); r.Status != http.StatusOK {
		t.Fatalf("disconnect: %d %s", r.Status, r)
	}
	place("G-1002")
	f.Adjust("E2E-1", wh, 9)
	tick()
	testenv.WaitFor(t, func() bool {
		var ls []listings.Listing
		f.C.Do(http.MethodGet, "/listings?channel_uuid="+ch, nil).JSON(t, &ls)
		return len(ls) == 1 && ls[0].SyncStatus == "off"
	}, "the listing off after the disconnection")
	f.Env.Drain(t)
	if q, _ := sb.Quantity(seller, "E2E-1"); q != before {
		t.Errorf("the sandbox's quantity after the disconnection: %d, want %d (no push)", q, before)
	}
	if got := refs(); !slices.Equal(got, []string{"G-1001"}) {
		t.Errorf("orders after the disconnection: %v, want [G-1001] (no poll)", got)
	}
}

// schedule returns runs of the poll scheduler (connector-poll-schedule), as EventBridge's
// rule would invoke it, each in the next schedule slot (a run in the same slot sends no new
// poll: its messages are deduplicated per slot); the local stack's queue mappings run the
// polls it sends.
func schedule(t *testing.T, env *testenv.Env) func() {
	t.Helper()
	h, err := env.Handler("connector-poll-schedule")
	if err != nil {
		t.Fatal(err)
	}
	run, ok := h.(func(context.Context, events.EventBridgeEvent) error)
	if !ok {
		t.Fatalf("connector-poll-schedule's handler is a %T", h)
	}
	slot := time.Now()
	return func() {
		slot = slot.Add(connectors.PollEvery)
		if err := run(context.Background(), events.EventBridgeEvent{Time: slot}); err != nil {
			t.Fatalf("poll schedule: %v", err)
		}
	}
}

// connectSeller opens a shop of its own on the sandbox for f's account and connects a channel
// of the account to it through POST /v1/channels; it returns the shop's seller and the channel.
func connectSeller(t *testing.T, f *orderstest.Fixture, sb *sandbox.Generic) (seller, channel string) {
	t.Helper()
	seller = "seller-" + f.Acct.ID
	sb.AddSeller(seller, clientSecret, refreshToken)
	r := f.C.Do(http.MethodPost, "/channels", connectBody(sb, "Generic", creds(map[string]any{"client_id": seller})))
	if r.Status != http.StatusCreated {
		t.Fatalf("connect: %d %s", r.Status, r)
	}
	var made envelope
	r.JSON(t, &made)
	return seller, made.Channel.UUID
}
