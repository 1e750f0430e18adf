package walmart_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/walmart"
	"github.com/multisell/multisell/pkg/local/sandbox"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/walmart"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// pollAll polls until a walk ends (not Partial), at most polls times, and returns the pages
// read.
func pollAll(t *testing.T, f *fixture, rt *connectors.Runtime, polls int) int {
	t.Helper()
	pages := 0
	for range polls {
		res, err := rt.Poll(ctx(t, 3*time.Minute), f.Ch)
		if err != nil {
			t.Fatalf("poll: %v", err)
		}
		pages += res.Pages
		if !res.Partial {
			return pages
		}
	}
	t.Fatalf("the walk did not end in %d polls", polls)
	return pages
}

// TestAcknowledgedOnce: 500 new orders over several pages of getAllOrders are imported once
// each and acknowledged once each (acknowledgeOrders after the inbox took their page); a
// poll after that, which reads them again (the acknowledgement changed them), acknowledges
// none again. All at the connector's limits, which the sandbox holds.
func TestAcknowledgedOnce(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	f := newFixture(t)
	const n = 500
	at := time.Now().Add(-time.Hour)
	pos := make([]string, n)
	for i := range pos {
		pos[i] = fmt.Sprintf("18%011d", i+1)
		f.sb.PutOrder(seller, sbx.NewOrder(pos[i], "SKU-A", 1, 1, "USD", at.Add(time.Duration(i)*time.Second)))
	}
	rt := f.Runtime(10 * time.Second)
	if pages := pollAll(t, f, rt, 5); pages < n/walmart.PageSize {
		t.Errorf("%d pages read, want at least %d", pages, n/walmart.PageSize)
	}
	counts := f.Inbox.TakeCounts()
	for _, po := range pos {
		if counts[po] != 1 || f.sb.Acks(seller, po) != 1 {
			t.Fatalf("order %s: sent %d times, acknowledged %d times; want once each", po, counts[po], f.sb.Acks(seller, po))
		}
	}
	pollAll(t, f, rt, 5)
	docs := f.Inbox.TakeOrders()
	for _, po := range pos {
		if f.sb.Acks(seller, po) != 1 {
			t.Fatalf("order %s acknowledged %d times after a second poll, want once", po, f.sb.Acks(seller, po))
		}
		if d := docs[po]; len(d) > 0 && itemField(d[len(d)-1], 0, "status") != "Acknowledged" {
			t.Errorf("order %s read again: line status %v, want Acknowledged", po, itemField(d[len(d)-1], 0, "status"))
		}
	}
	connectorstest.WantUnder(t, f.sb, sbx.OpGetAllOrders, sbx.OpAcknowledge)
}

// TestInboxDownNothingAcknowledged: while the inbox takes nothing, a poll acknowledges no
// order; once it takes them, the next poll imports and acknowledges each.
func TestInboxDownNothingAcknowledged(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	f := newFixture(t)
	f.sb.AddItem(seller, "SKU-D", 10)
	var ids []string
	for range 3 {
		o, err := sandbox.PlaceOrder(ctx(t, time.Minute), f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, o.ID)
	}
	f.Inbox.SetFail(func(int) bool { return true })
	rt := f.Runtime(10 * time.Second)
	if _, err := rt.Poll(ctx(t, time.Minute), f.Ch); err == nil {
		t.Fatal("poll with the inbox down: no error")
	}
	for _, id := range ids {
		if n := f.sb.Acks(seller, id); n != 0 {
			t.Errorf("order %s acknowledged %d times with the inbox down, want 0", id, n)
		}
	}
	f.Inbox.SetFail(nil)
	pollAll(t, f, rt, 3)
	counts := f.Inbox.TakeCounts()
	for _, id := range ids {
		if counts[id] != 1 || f.sb.Acks(seller, id) != 1 {
			t.Errorf("order %s after the inbox is back: sent %d, acknowledged %d; want once each", id, counts[id], f.sb.Acks(seller, id))
		}
	}
}

// TestOneLineCancelled: an order of two lines imported (and acknowledged), then one line
// cancelled on Walmart: the next import has that line cancelled whole and the other as it
// was; lines shipped on Walmart import with their carrier and tracking number; an order
// placed shipped imports shipped whole.
func TestOneLineCancelled(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	f := newFixture(t)
	f.sb.AddItem(seller, "SKU-L", 10)
	c := ctx(t, 2*time.Minute)
	o, err := sandbox.PlaceOrder(c, f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID, SKU: "SKU-L", Quantity: 2, Lines: 2, Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	rt := f.Runtime(10 * time.Second)
	pollAll(t, f, rt, 3)
	first := f.Inbox.TakeOrders()[o.ID]
	if len(first) != 1 {
		t.Fatalf("order sent %d times, want once", len(first))
	}
	if got, want := fmt.Sprint(first[0]["subtotal"], " ", first[0]["shipping_cost"], " ", first[0]["tax"], " ", first[0]["total"]), "79.96 4.99 6.4 91.35"; got != want {
		t.Errorf("subtotal shipping tax total %s, want %s", got, want)
	}
	if err := sandbox.ChangeLine(c, f.sb.URL, sandbox.LineChange{ChannelUUID: f.Ch.UUID, OrderID: o.ID, Line: 2, Cancelled: 2}); err != nil {
		t.Fatal(err)
	}
	shipped, err := sandbox.PlaceOrder(c, f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID, SKU: "SKU-L", Lines: 2, Shipped: true})
	if err != nil {
		t.Fatal(err)
	}
	pollAll(t, f, rt, 3)
	docs := f.Inbox.TakeOrders()
	again := docs[o.ID]
	if len(again) == 0 {
		t.Fatal("the order was not imported again after its line was cancelled")
	}
	last := again[len(again)-1]
	line := func(d map[string]any, i int) string {
		return fmt.Sprint(itemField(d, i, "status"), " ", itemField(d, i, "quantity_shipped"), " ", itemField(d, i, "quantity_cancelled"),
			" ", itemField(d, i, "carrier_name"), " ", itemField(d, i, "tracking_number") != nil)
	}
	tests := []struct {
		name string
		doc  map[string]any
		line int
		want string
	}{
		{"line 1 unchanged", last, 0, "Acknowledged <nil> <nil> <nil> false"},
		{"line 2 cancelled", last, 1, "Cancelled <nil> 2 <nil> false"},
		{"placed shipped, line 1", lastDoc(docs[shipped.ID]), 0, "Shipped 1 <nil> UPS true"},
		{"placed shipped, line 2", lastDoc(docs[shipped.ID]), 1, "Shipped 1 <nil> UPS true"},
	}
	for _, tc := range tests {
		if got := line(tc.doc, tc.line); got != tc.want {
			t.Errorf("%s: status shipped cancelled carrier tracking = %s, want %s", tc.name, got, tc.want)
		}
	}
	if last["cancelled_at"] != nil {
		t.Errorf("one line of two cancelled: the order is cancelled_at %v, want not cancelled", last["cancelled_at"])
	}
	if n := f.sb.Acks(seller, o.ID); n != 1 {
		t.Errorf("order acknowledged %d times, want once", n)
	}
	if n := f.sb.Acks(seller, shipped.ID); n != 0 {
		t.Errorf("an order placed shipped acknowledged %d times, want none", n)
	}
}

// lastDoc is the last of an order's documents (nil for none).
func lastDoc(docs []map[string]any) map[string]any {
	if len(docs) == 0 {
		return nil
	}
	return docs[len(docs)-1]
}

// itemField is field of the document's line i (nil when absent).
func itemField(doc map[string]any, i int, field string) any {
	items, _ := doc["items"].([]any)
	if i >= len(items) {
		return nil
	}
	m, _ := items[i].(map[string]any)
	return m[field]
}
