package orders_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// channelLine is a document line of qty units of sku, shipped and cancelled
// on the channel as given.
func channelLine(ref, sku string, qty, shipped, cancelled int) map[string]any {
	l := orderstest.Line(ref, sku, qty)
	l["quantity_shipped"], l["quantity_cancelled"] = shipped, cancelled
	if shipped > 0 {
		l["carrier_name"], l["tracking_number"] = "UPS", "1Z-CHANNEL"
	}
	return l
}

// paidDoc is a paid document of the fixture's channel.
func paidDoc(f *orderstest.Fixture, ref string, lines ...map[string]any) map[string]any {
	doc := f.Doc(ref, "2024-01-01", lines...)
	doc["payment_status"] = "all"
	return doc
}

// wantStatus checks an order's statuses and its lines' quantity_fulfilled.
func wantStatus(t *testing.T, o orders.Order, status, shipment string, fulfilled ...int) {
	t.Helper()
	if o.Status != status || o.ShipmentStatus != shipment {
		t.Errorf("order %d: %s/%s, want %s/%s", o.Seq, o.Status, o.ShipmentStatus, status, shipment)
	}
	for i, want := range fulfilled {
		if got := o.Items[i].QuantityFulfilled; got != want {
			t.Errorf("order %d line %d: quantity_fulfilled %d, want %d", o.Seq, i+1, got, want)
		}
	}
	if shipment != orders.None && o.ShippedAt == nil {
		t.Errorf("order %d: shipped_at null, want set", o.Seq)
	}
}

// shipmentsOf is how many shipments GET /shipments lists for the order:
// a channel's own shipment makes none (nothing goes back to the channel).
func shipmentsOf(t *testing.T, f *orderstest.Fixture, seq int64) int {
	t.Helper()
	r := f.C.Do(http.MethodGet, fmt.Sprintf("/shipments?sb_order_seq=%d", seq), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /shipments: %d %s", r.Status, r)
	}
	var list []map[string]any
	r.JSON(t, &list)
	return len(list)
}

// stocked is a fixture whose warehouse holds 5 of each product of skus.
func stocked(t *testing.T, skus ...string) (*orderstest.Fixture, string) {
	t.Helper()
	f := orderstest.New(t)
	wh := f.Warehouse("Main")
	for _, s := range skus {
		f.Product(s)
		f.Stock(s, wh, 5)
	}
	return f, wh
}

// TestChannelFirstSeenShipped: an order first imported already shipped (or
// cancelled) on the channel takes that status and never touches stock.
func TestChannelFirstSeenShipped(t *testing.T) {
	t.Parallel()
	f, wh := stocked(t, "S")
	shipped := f.ImportOne(paidDoc(f, "FS-1", channelLine("1", "S", 2, 2, 0)))
	wantStatus(t, f.Order(shipped), orders.StatusCompleted, orders.All, 2)
	cancelled := f.ImportOne(paidDoc(f, "FS-2", channelLine("1", "S", 2, 0, 2)))
	if o := f.Order(cancelled); o.Status != orders.StatusCancelled || o.Items[0].CancelledAt == nil {
		t.Errorf("order first seen cancelled: %s, line cancelled_at %v", o.Status, o.Items[0].CancelledAt)
	}
	half := f.ImportOne(paidDoc(f, "FS-3", channelLine("1", "S", 3, 1, 1)))
	wantStatus(t, f.Order(half), orders.StatusOpen, orders.Partial, 1)
	f.WantStock("S", wh, 5, 1) // FS-3's one unit left to ship, nothing of the others
	if n := shipmentsOf(t, f, shipped); n != 0 {
		t.Errorf("%d shipments for an order shipped on the channel, want 0", n)
	}
}

// TestChannelShippedAfterImport: a line shipped on the channel after the
// import takes its units out of on_hand and the reservation once, however
// often the document comes again; a lower quantity later is ignored; no
// shipment (and so no tracking) goes back to the channel.
func TestChannelShippedAfterImport(t *testing.T) {
	t.Parallel()
	f, wh := stocked(t, "S")
	seq := f.ImportOne(paidDoc(f, "SA-1", channelLine("1", "S", 2, 0, 0)))
	f.WantStock("S", wh, 5, 2)
	for i, shipped := range []int{1, 2, 2, 1} {
		res := f.ImportDocs(paidDoc(f, "SA-1", channelLine("1", "S", 2, shipped, 0)))
		if res[0].Result == orders.ResultError {
			t.Fatalf("re-import %d: %+v", i, res[0])
		}
	}
	f.WantStock("S", wh, 3, 0)
	wantStatus(t, f.Order(seq), orders.StatusCompleted, orders.All, 2)
	if !f.WantAt(seq, map[string]int{wh: 2}) {
		t.Log("the line's warehouses are where it shipped from")
	}
	if n := shipmentsOf(t, f, seq); n != 0 {
		t.Errorf("%d shipments for an order shipped on the channel, want 0", n)
	}
}

// TestChannelShippedAfterOwnShipment: units multisell shipped itself are
// not taken again when the channel reports them shipped; only what the
// channel shipped beyond them is.
func TestChannelShippedAfterOwnShipment(t *testing.T) {
	t.Parallel()
	f, wh := stocked(t, "S")
	seq := f.ImportOne(paidDoc(f, "OS-1", channelLine("1", "S", 3, 0, 0)))
	if r := f.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1Z-OWN",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}}); r.Status != http.StatusCreated && r.Status != http.StatusOK {
		t.Fatalf("POST /shipments: %d %s", r.Status, r)
	}
	f.WantStock("S", wh, 4, 2)
	f.ImportDocs(paidDoc(f, "OS-1", channelLine("1", "S", 3, 1, 0)))
	f.WantStock("S", wh, 4, 2)
	wantStatus(t, f.Order(seq), orders.StatusOpen, orders.Partial, 1)
	f.ImportDocs(paidDoc(f, "OS-1", channelLine("1", "S", 3, 3, 0)))
	f.WantStock("S", wh, 2, 0)
	wantStatus(t, f.Order(seq), orders.StatusCompleted, orders.All, 3)
	if n := shipmentsOf(t, f, seq); n != 1 {
		t.Errorf("%d shipments, want only multisell's own", n)
	}
}

// TestChannelCancelledLine: one line of two cancelled on the channel
// releases only its quantity; a part of a line cancelled releases that
// part, and the order completes when the rest ships.
func TestChannelCancelledLine(t *testing.T) {
	t.Parallel()
	f, wh := stocked(t, "A", "B")
	seq := f.ImportOne(paidDoc(f, "CL-1", channelLine("1", "A", 2, 0, 0), channelLine("2", "B", 3, 0, 0)))
	f.WantStock("A", wh, 5, 2)
	f.WantStock("B", wh, 5, 3)
	f.ImportDocs(paidDoc(f, "CL-1", channelLine("1", "A", 2, 0, 2), channelLine("2", "B", 3, 0, 1)))
	f.WantStock("A", wh, 5, 0)
	f.WantStock("B", wh, 5, 2)
	o := f.Order(seq)
	if o.Status != orders.StatusOpen || o.Items[0].CancelledAt == nil || o.Items[1].CancelledAt != nil {
		t.Errorf("after cancelling line 1 and a unit of line 2: %s, cancelled_at %v %v", o.Status, o.Items[0].CancelledAt, o.Items[1].CancelledAt)
	}
	f.ImportDocs(paidDoc(f, "CL-1", channelLine("1", "A", 2, 0, 2), channelLine("2", "B", 3, 2, 1)))
	f.WantStock("B", wh, 3, 0)
	wantStatus(t, f.Order(seq), orders.StatusCompleted, orders.All, 0, 2)
}

// TestChannelQuantityLowered: a channel that shows cancelled units by
// ordering fewer (Amazon's QuantityOrdered) cancels what it no longer
// orders: a line lowered from 3 to 1 releases 2, a line of 2 sent as 1 of
// which 1 cancelled (Amazon's line of no quantity left) releases both; a
// quantity raised later cancels nothing back.
func TestChannelQuantityLowered(t *testing.T) {
	t.Parallel()
	f, wh := stocked(t, "A", "B")
	seq := f.ImportOne(paidDoc(f, "QL-1", channelLine("1", "A", 3, 0, 0), channelLine("2", "B", 2, 0, 0)))
	f.WantStock("A", wh, 5, 3)
	f.WantStock("B", wh, 5, 2)
	f.ImportDocs(paidDoc(f, "QL-1", channelLine("1", "A", 1, 0, 0), channelLine("2", "B", 1, 0, 1)))
	f.WantStock("A", wh, 5, 1)
	f.WantStock("B", wh, 5, 0)
	o := f.Order(seq)
	if o.Status != orders.StatusOpen || o.Items[0].CancelledAt != nil || o.Items[1].CancelledAt == nil {
		t.Errorf("after lowering line 1 to 1 and line 2 to none: %s, cancelled_at %v %v", o.Status, o.Items[0].CancelledAt, o.Items[1].CancelledAt)
	}
	f.ImportDocs(paidDoc(f, "QL-1", channelLine("1", "A", 3, 1, 0), channelLine("2", "B", 1, 0, 1)))
	f.WantStock("A", wh, 4, 0)
	wantStatus(t, f.Order(seq), orders.StatusCompleted, orders.All, 1, 0)
}

// TestChannelLineRefused: quantities that are not integers from 0, or that
// add up to more than the line, refuse the document.
func TestChannelLineRefused(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	for _, tc := range []struct {
		name               string
		shipped, cancelled any
		want               string
	}{
		{"over the quantity", 2, 1, "items[0].quantity_shipped 2 + quantity_cancelled 1 exceed the line's quantity 2"},
		{"negative", -1, 0, "items[0].quantity_shipped must be an integer from 0 to the line's quantity 2"},
		{"fraction", 0, 0.5, "items[0].quantity_cancelled must be an integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := orderstest.Line("1", "S", 2)
			l["quantity_shipped"], l["quantity_cancelled"] = tc.shipped, tc.cancelled
			res := f.In(t).ImportDocs(f.Doc("BAD-"+tc.name, "2024-01-01", l))
			if res[0].Result != orders.ResultError || res[0].Error != tc.want {
				t.Errorf("result %+v, want error %q", res[0], tc.want)
			}
		})
	}
}
