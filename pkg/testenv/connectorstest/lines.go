package connectorstest

import (
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The cases of lines shipped or cancelled on the channel (docs/orders.md, "Lines shipped or
// cancelled on the channel"): what the documents a connector sends say of each line once the
// seller shipped or cancelled it with the marketplace's own tools (the sandbox's
// sandbox.OrderRequest.Shipped and sandbox.ChangeLine).

// placeOrder places an order of the channel as in asks (its channel and SKU the case's) and
// returns its id in the sandbox.
func (c *C) placeOrder(in sandbox.OrderRequest) string {
	c.Helper()
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	in.ChannelUUID, in.SKU = c.ch.UUID, c.sb.SKU
	o, err := sandbox.PlaceOrder(ctx, c.sb.URL, in)
	if err != nil {
		c.Fatalf("place an order: %v", err)
	}
	return o.ID
}

// changeLine ships or cancels units of line (from 1) of the order id on the marketplace.
func (c *C) changeLine(id string, line, shipped, cancelled int) {
	c.Helper()
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	err := sandbox.ChangeLine(ctx, c.sb.URL, sandbox.LineChange{ChannelUUID: c.ch.UUID, OrderID: id, Line: line, Shipped: shipped, Cancelled: cancelled})
	if err != nil {
		c.Fatalf("change line %d of order %s on the marketplace: %v", line, id, err)
	}
}

// lineState is what a document says of a line: its quantity, shipped, cancelled, carrier and
// tracking number.
type lineState struct {
	Quantity, Shipped, Cancelled int64
	Carrier, Tracking            string
}

// pollLines polls once and returns the lines of the one order the case placed, as the last
// document sent of it says, and whether that document cancels the order whole.
func (c *C) pollLines() ([]lineState, bool) {
	c.Helper()
	if _, err := c.poll(); err != nil {
		c.Fatalf("poll: %v", err)
	}
	got := c.take()
	if len(got) != 1 {
		c.Fatalf("poll sent %d orders (%v), want the 1 of the case", len(got), keys(got))
	}
	var doc map[string]any
	for _, docs := range got {
		doc = docs[len(docs)-1]
	}
	items, _ := doc["items"].([]any)
	lines := make([]lineState, len(items))
	for i, it := range items {
		m, _ := it.(map[string]any)
		num := func(k string) int64 { v, _ := m[k].(float64); return int64(v) }
		str := func(k string) string { v, _ := m[k].(string); return v }
		lines[i] = lineState{Quantity: num("quantity"), Shipped: num("quantity_shipped"), Cancelled: num("quantity_cancelled"),
			Carrier: str("carrier_name"), Tracking: str("tracking_number")}
	}
	cancelled, _ := doc["cancelled_at"].(string)
	return lines, cancelled != ""
}

// wantLines checks the lines a document said against want: each line's shipped and
// cancelled quantities (as parts of its quantity: want's Quantity is what is left neither
// shipped nor cancelled), and a carrier and tracking number on each line shipped, unless the
// marketplace gives none (Harness.NoLineTracking).
func (c *C) wantLines(when string, got []lineState, want []lineState) {
	c.Helper()
	if len(got) != len(want) {
		c.Errorf("%s: %d lines, want %d (%+v)", when, len(got), len(want), got)
		return
	}
	for i, g := range got {
		w := want[i]
		if left := g.Quantity - g.Shipped - g.Cancelled; g.Shipped != w.Shipped || g.Cancelled != w.Cancelled || left != w.Quantity {
			c.Errorf("%s: line %d says quantity %d, shipped %d, cancelled %d; want shipped %d, cancelled %d, %d left",
				when, i+1, g.Quantity, g.Shipped, g.Cancelled, w.Shipped, w.Cancelled, w.Quantity)
		}
		if g.Shipped > 0 && !c.h.NoLineTracking && (g.Carrier == "" || g.Tracking == "") {
			c.Errorf("%s: line %d is shipped with carrier %q and tracking %q, want the marketplace's", when, i+1, g.Carrier, g.Tracking)
		}
	}
}

// firstSeenShippedCase: an order the seller shipped whole on the marketplace before the first
// poll is sent with every line shipped (and the marketplace's carrier and tracking).
func firstSeenShippedCase(c *C) {
	c.placeOrder(sandbox.OrderRequest{Quantity: 2, Lines: 2, Shipped: true})
	lines, cancelled := c.pollLines()
	c.wantLines("an order first seen shipped", lines, []lineState{{Shipped: 2}, {Shipped: 2}})
	if cancelled {
		c.Errorf("an order first seen shipped is sent cancelled")
	}
}

// shippedAfterImportCase: an order sent open, then shipped on the marketplace in two parts
// (in one where the marketplace ships a line whole, Harness.WholeShipments), is sent again
// after each with the line's shipped quantity so far (cumulative).
func shippedAfterImportCase(c *C) {
	id := c.placeOrder(sandbox.OrderRequest{Quantity: 2})
	lines, _ := c.pollLines()
	c.wantLines("the order placed", lines, []lineState{{Quantity: 2}})
	step := 1
	if c.h.WholeShipments {
		step = 2
	}
	for shipped := int64(step); shipped <= 2; shipped += int64(step) {
		c.changeLine(id, 1, step, 0)
		lines, cancelled := c.pollLines()
		c.wantLines(fmt.Sprintf("after %d of 2 units shipped on the marketplace", shipped), lines, []lineState{{Quantity: 2 - shipped, Shipped: shipped}})
		if cancelled {
			c.Errorf("an order shipped on the marketplace is sent cancelled")
		}
	}
}

// oneLineCancelledCase: one line of two cancelled on the marketplace is sent cancelled, the
// other line and the order not.
func oneLineCancelledCase(c *C) {
	id := c.placeOrder(sandbox.OrderRequest{Lines: 2})
	lines, _ := c.pollLines()
	c.wantLines("the order placed", lines, []lineState{{Quantity: 1}, {Quantity: 1}})
	c.changeLine(id, 2, 0, 1)
	lines, cancelled := c.pollLines()
	c.wantLines("after line 2 of 2 cancelled on the marketplace", lines, []lineState{{Quantity: 1}, {Cancelled: 1}})
	if cancelled {
		c.Errorf("one line of two cancelled: the order is sent cancelled whole")
	}
}
