package connectorstest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// CaseStackLines is the suite's case that runs lines shipped or cancelled on the channel
// through the local stack (stackLines).
const CaseStackLines = "lines shipped or cancelled on the channel, through the stack"

// stack is a channel of the connector under test connected through the local stack
// (POST /v1/channels), its sandbox, and the stock of its listing's SKU.
type stack struct {
	*orderstest.Fixture
	t         *testing.T
	sb        Sandbox
	ch, wh    string
	slot      time.Time
	refs      []string // display refs imported, in order
	placed    []string // the sandbox's ids of the orders placed, in order
	ownTracks []int    // the trackings the seller's own tools made on each order
}

// stackLines: through the local stack, with h's connector on its sandbox (docs/orders.md,
// "Lines shipped or cancelled on the channel"): an order first seen shipped imports
// completed and leaves the stock as it was; one shipped on the channel after import deducts
// on_hand once and releases its reservation, and nothing is pushed back to the channel for
// it (no shipment, no tracking beyond the seller's own); one line of two cancelled releases
// only its quantity and leaves the order open.
func stackLines(t *testing.T, h Harness) {
	s := newStack(t, h)
	s.Stock(s.sb.SKU, s.wh, 10)

	// First seen shipped: completed, shipped whole, the stock untouched.
	first := s.place(sandbox.OrderRequest{Quantity: 2, Shipped: true})
	if o := s.order(first); o.Status != orders.StatusCompleted || o.ShipmentStatus != orders.All || o.Items[0].QuantityFulfilled != 2 {
		t.Errorf("an order first seen shipped: %s/%s, quantity_fulfilled %d; want completed, all, 2", o.Status, o.ShipmentStatus, o.Items[0].QuantityFulfilled)
	}
	s.WantStock(s.sb.SKU, s.wh, 10, 0)

	// Shipped on the channel after import: on_hand down once, the reservation released.
	after := s.place(sandbox.OrderRequest{Quantity: 2})
	s.WantStock(s.sb.SKU, s.wh, 10, 2)
	s.change(after, 1, 2, 0, func(o orders.Order) bool { return o.ShipmentStatus == orders.All })
	s.WantStock(s.sb.SKU, s.wh, 8, 0)

	// One line of two cancelled: only its unit released, the order open.
	two := s.place(sandbox.OrderRequest{Lines: 2})
	s.WantStock(s.sb.SKU, s.wh, 8, 2)
	s.change(two, 2, 0, 1, func(o orders.Order) bool { return len(o.Items) == 2 && o.Items[1].CancelledAt != nil })
	if o := s.order(two); o.Status != orders.StatusOpen || o.Items[0].CancelledAt != nil {
		t.Errorf("one line of two cancelled: the order is %s, line 1 cancelled at %v; want open, line 1 not cancelled", o.Status, o.Items[0].CancelledAt)
	}
	s.WantStock(s.sb.SKU, s.wh, 8, 1)

	// Every later poll sent the shipped order again: still deducted once, and nothing of
	// multisell's reached the channel for any order.
	for i := range s.refs {
		if n := s.shipments(s.order(i).Seq); n != 0 {
			t.Errorf("order %s: %d shipments in multisell, want none (the channel shipped it)", s.refs[i], n)
		}
		if got := s.sb.Trackings(s.placed[i], s.refs[i]); got != s.ownTracks[i] {
			t.Errorf("order %s: %d trackings on the channel, want the seller's own %d", s.refs[i], got, s.ownTracks[i])
		}
	}
}

// newStack connects a channel of h's connector, registered under a name of its own, on a
// new sandbox through POST /v1/channels, and makes a warehouse and the product of its SKU.
func newStack(t *testing.T, h Harness) *stack {
	f := orderstest.New(t)
	name := "stack-" + store.NewID()[:8]
	connectors.Register(named{Connector: h.Connector, name: name})
	sb := h.Start(t, store.NewID())
	if sb.Bind == nil {
		t.Skip("the harness's sandbox binds no channel connected through the stack (Sandbox.Bind)")
	}
	endpoints := map[string]string{"api": sb.Endpoints.API}
	if sb.Endpoints.Auth != "" {
		endpoints["auth"] = sb.Endpoints.Auth
	}
	ch := f.C.ConnectChannel(map[string]any{"channel": map[string]any{"name": "Stack " + name, "type": name,
		"credentials": json.RawMessage(sb.Credentials), "endpoints": endpoints}}).UUID
	sb.Bind(ch)
	s := &stack{Fixture: f, t: t, sb: sb, ch: ch, wh: f.Warehouse("A"), slot: time.Now()}
	f.Product(sb.SKU)
	return s
}

// poll enqueues a poll of the channel in a slot of its own (a slot is polled once).
func (s *stack) poll() {
	s.slot = s.slot.Add(connectors.PollEvery)
	if err := s.Env.Deps.Connectors().Enqueue(context.Background(), connectors.ChannelRef{Account: s.Acct.ID, UUID: s.ch}, s.slot); err != nil {
		s.t.Fatal(err)
	}
}

// place places an order of the listing's SKU on the channel, polls until it is imported and
// returns its index.
func (s *stack) place(in sandbox.OrderRequest) int {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	in.ChannelUUID, in.SKU = s.ch, s.sb.SKU
	o, err := sandbox.PlaceOrder(ctx, s.sb.URL, in)
	if err != nil {
		s.t.Fatalf("place an order: %v", err)
	}
	var ref string
	testenv.WaitFor(s.t, func() bool {
		s.poll()
		for _, o := range s.List("/orders") {
			if !slices.Contains(s.refs, o.DisplayRef) {
				ref = o.DisplayRef
			}
		}
		return ref != ""
	}, fmt.Sprintf("order %d imported", len(s.refs)+1))
	s.refs, s.placed = append(s.refs, ref), append(s.placed, o.ID)
	s.ownTracks = append(s.ownTracks, s.sb.Trackings(o.ID, ref))
	return len(s.refs) - 1
}

// change ships or cancels units of a line (from 1) of order i on the channel, and polls until
// the order shows done.
func (s *stack) change(i, line, shipped, cancelled int, done func(orders.Order) bool) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := sandbox.ChangeLine(ctx, s.sb.URL, sandbox.LineChange{ChannelUUID: s.ch, OrderID: s.placed[i], Line: line, Shipped: shipped, Cancelled: cancelled})
	if err != nil {
		s.t.Fatalf("change line %d of order %s on the channel: %v", line, s.refs[i], err)
	}
	s.ownTracks[i] = s.sb.Trackings(s.placed[i], s.refs[i])
	testenv.WaitFor(s.t, func() bool { s.poll(); return done(s.order(i)) }, fmt.Sprintf("the change of order %s imported", s.refs[i]))
}

// order is order i as GET /v1/orders shows it.
func (s *stack) order(i int) orders.Order {
	s.t.Helper()
	for _, o := range s.List("/orders") {
		if o.DisplayRef == s.refs[i] {
			return s.Order(o.Seq)
		}
	}
	s.t.Fatalf("order %s not found", s.refs[i])
	return orders.Order{}
}

// shipments is how many shipments GET /v1/shipments lists for the order seq.
func (s *stack) shipments(seq int64) int {
	s.t.Helper()
	r := s.C.Do(http.MethodGet, fmt.Sprintf("/shipments?sb_order_seq=%d", seq), nil)
	if r.Status != http.StatusOK {
		s.t.Fatalf("GET /shipments: %d %s", r.Status, r)
	}
	var list []map[string]any
	r.JSON(s.t, &list)
	return len(list)
}
