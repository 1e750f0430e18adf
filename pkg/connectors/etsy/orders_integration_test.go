package etsy_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
)

// TestPollReceipts: 300 receipts (several changed in the same second) import once each,
// through pages of 100; receipts changed while the pages are read (one already read, one not
// yet) are neither lost nor doubled; a refund, a refund of one unit of a line and a
// cancellation made on Etsy update ours.
func TestPollReceipts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	now := time.Now()
	ids := make([]int64, 300)
	for i := range ids {
		ids[i] = f.sb.PlaceReceipt(shop, []sbx.Line{{SKU: "SKU-" + strconv.Itoa(i%7), Quantity: 1 + int64(i%3), Cents: 1999}},
			"USD", now.Add(-time.Duration(300-i)*time.Second/3))
	}

	// A walk page by page, with two receipts changed between its first and second pages.
	s := f.session(t)
	seen := map[string]int{}
	q := connectors.OrdersQuery{Since: now.Add(-time.Hour)}
	for pages := 0; ; pages++ {
		if pages > 10 {
			t.Fatal("the walk did not end")
		}
		page, err := etsy.Connector.PollOrders(ctx(t, time.Minute), s, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range page.Orders {
			seen[o.Ref]++
		}
		if pages == 0 {
			f.sb.ChangeReceipt(shop, ids[10], func(*sbx.Receipt) {})  // read already: read again, changed
			f.sb.ChangeReceipt(shop, ids[250], func(*sbx.Receipt) {}) // not read yet: read once
		}
		if page.Next == "" {
			break
		}
		q.Page = page.Next
	}
	for i, id := range ids {
		want := 1
		if i == 10 {
			want = 2
		}
		if got := seen[strconv.FormatInt(id, 10)]; got != want {
			t.Errorf("receipt %d (the %dth) read %d times in the walk, want %d", id, i, got, want)
		}
	}

	// Through the runtime: every receipt once.
	res, err := f.rt.Poll(ctx(t, 2*time.Minute), f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	counts := f.Inbox.TakeCounts()
	if len(counts) != 300 || res.Pages < 3 {
		t.Fatalf("first poll: %d receipts in %d pages, want 300 in 3 or more", len(counts), res.Pages)
	}
	for ref, n := range counts {
		if n != 1 {
			t.Errorf("receipt %s sent %d times, want once", ref, n)
		}
	}

	time.Sleep(2100 * time.Millisecond) // a change a second later than the overlap
	f.sb.ChangeReceipt(shop, ids[5], sbx.RefundAll)
	f.sb.ChangeReceipt(shop, ids[6], sbx.Cancel)
	f.sb.RefundUnits(shop, ids[8], 1, 1) // the 8th receipt's line has 3 units
	if _, err := f.rt.Poll(ctx(t, 2*time.Minute), f.Ch); err != nil {
		t.Fatal(err)
	}
	docs := f.Inbox.TakeOrders()
	for _, tc := range []struct {
		name        string
		id          int64
		cancelledAt bool
		units       float64
	}{{"refunded", ids[5], false, 3}, {"cancelled", ids[6], true, 1}, {"one unit refunded", ids[8], false, 1}} {
		got := docs[strconv.FormatInt(tc.id, 10)]
		if len(got) != 1 {
			t.Errorf("%s receipt: sent %d times after its change, want once", tc.name, len(got))
			continue
		}
		d := got[0]
		_, hasCancelled := d["cancelled_at"]
		item := d["items"].([]any)[0].(map[string]any)
		if hasCancelled != tc.cancelledAt || item["quantity_cancelled"] != tc.units {
			t.Errorf("%s receipt: cancelled_at %v, line %v", tc.name, d["cancelled_at"], item)
		}
	}
}
