package ebay_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestOrdersImportOnce: 450 orders come in 3 pages and each reaches the inbox once; a poll
// that fails (the inbox, then eBay) keeps its cursor and the next resumes without gaps; an
// order eBay answers unreadable is refused and holds up none of the others; later changes
// (paid, shipped elsewhere, cancelled) come in again with the new state.
func TestOrdersImportOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 120*time.Second)
	base := time.Now().Add(-time.Hour)
	for i := range 450 {
		f.sb.PutOrder(seller, sbx.NewOrder(fmt.Sprintf("11-%05d-00001", i), "SKU-1", 1, base.Add(time.Duration(i)*time.Second)))
	}
	f.sb.ChangeOrder(seller, "11-00001-00001", func(o *sbx.Order) { o.OrderPaymentStatus = "PENDING"; o.PaymentSummary = nil })
	f.sb.ChangeOrder(seller, "11-00002-00001", func(o *sbx.Order) {}) // modified later than the rest
	ch := f.Ch

	// A poll whose second page the inbox refuses keeps the cursor.
	f.Inbox.SetFail(func(n int) bool { return n == 2 })
	if _, err := f.Runtime(30*time.Second).Poll(c, ch); err == nil {
		t.Fatal("poll with a failing inbox: no error")
	}
	f.Inbox.SetFail(nil)
	_ = f.Inbox.TakeOrders()
	// A poll eBay fails keeps it too.
	f.sb.FailNext(sbx.OpGetOrders, 1)
	if _, err := f.Runtime(30*time.Second).Poll(c, ch); err == nil {
		t.Fatal("poll eBay fails: no error")
	}
	res, err := f.Runtime(30*time.Second).Poll(c, ch)
	if err != nil {
		t.Fatal(err)
	}
	docs := f.Inbox.TakeOrders()
	if got, want := res.Pages, 3; got != want {
		t.Errorf("pages: got %d, want %d", got, want)
	}
	if got, want := len(docs), 450; got != want {
		t.Fatalf("orders: got %d, want %d", got, want)
	}
	for ref, d := range docs {
		if len(d) != 1 {
			t.Errorf("order %s sent %d times, want once", ref, len(d))
		}
	}
	d := docs["11-00003-00001"][0]
	if got, want := fmt.Sprintf("%v %v %v %v", d["payment_status"], d["total"], d["shipping_city"], d["items"].([]any)[0].(map[string]any)["order_item_ref"]),
		"all 19.99 San Jose 11-00003-00001-1"; got != want {
		t.Errorf("document: got %s, want %s", got, want)
	}
	if got, want := docs["11-00001-00001"][0]["payment_status"], "none"; got != want {
		t.Errorf("pending order payment_status: got %v, want %v", got, want)
	}

	// Later changes come in with the new state, beside an unreadable order, which is refused,
	// then comes in once eBay answers it well.
	time.Sleep(1100 * time.Millisecond) // past the overlap
	f.sb.ChangeOrder(seller, "11-00001-00001", func(o *sbx.Order) {
		o.OrderPaymentStatus = "PAID"
		o.PaymentSummary = &sbx.PaymentSummary{Payments: []sbx.Payment{{PaymentDate: sbx.Now()}}}
	})
	f.sb.ChangeOrder(seller, "11-00010-00001", func(o *sbx.Order) {
		o.OrderFulfillmentStatus, o.LineItems[0].LineItemFulfillmentStatus = "FULFILLED", "FULFILLED"
	})
	f.sb.ChangeOrder(seller, "11-00020-00001", func(o *sbx.Order) {
		o.CancelStatus = &sbx.CancelStatus{CancelState: "CANCELED", CancelledDate: sbx.Now()}
	})
	f.sb.ChangeOrder(seller, "11-00030-00001", func(o *sbx.Order) { o.LineItems = []sbx.LineItem{} })
	res, err = f.Runtime(30*time.Second).Poll(c, ch)
	if err != nil || res.Refused == nil || !strings.Contains(res.Refused.Error(), "no lineItems") {
		t.Fatalf("poll beside an unreadable order: got %v, refused %v, want no error and the order refused", err, res.Refused)
	}
	docs = f.Inbox.TakeOrders()
	if got := len(docs["11-00030-00001"]); got != 0 {
		t.Errorf("the unreadable order was sent %d times, want none", got)
	}
	f.sb.ChangeOrder(seller, "11-00030-00001", func(o *sbx.Order) {
		*o = sbx.NewOrder(o.OrderID, "SKU-1", 1, time.Now())
	})
	if _, err := f.Runtime(30*time.Second).Poll(c, ch); err != nil {
		t.Fatal(err)
	}
	if got := len(f.Inbox.TakeOrders()["11-00030-00001"]); got != 1 {
		t.Errorf("the order once readable was sent %d times, want once", got)
	}
	for _, tc := range []struct{ ref, field, want string }{
		{"11-00001-00001", "payment_status", "all"},
		{"11-00010-00001", "status", "FULFILLED"},
		{"11-00020-00001", "cancelled", "true"},
	} {
		if len(docs[tc.ref]) != 1 {
			t.Errorf("changed order %s sent %d times, want once", tc.ref, len(docs[tc.ref]))
			continue
		}
		d := docs[tc.ref][0]
		var got string
		switch tc.field {
		case "status":
			got = fmt.Sprint(d["items"].([]any)[0].(map[string]any)["status"])
		case "cancelled":
			got = fmt.Sprint(d["cancelled_at"] != nil)
		default:
			got = fmt.Sprint(d[tc.field])
		}
		if got != tc.want {
			t.Errorf("order %s %s: got %s, want %s", tc.ref, tc.field, got, tc.want)
		}
	}
	connectorstest.WantUnder(t, f.sb, sbx.OpGetOrders)
}

// TestQuantities: 120 listings' quantities go out in calls of at most 25; each ends synced
// but one SKU eBay does not list, which fails alone, naming it; a 429 waits and
// the push still ends synced; no call goes over the published limit.
func TestQuantities(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 120*time.Second)
	var msgs []connectors.Message
	for i := range 120 {
		sku := fmt.Sprintf("SKU-%03d", i)
		if i != 77 {
			f.sb.AddListing(seller, sku, 0)
		}
		msgs = append(msgs, f.Quantity(sku, int64(i+1), 1))
	}
	f.sb.ThrottleNext(sbx.OpBulkQuantity, 1, time.Second)
	rep := f.Runtime(30*time.Second).Push(c, msgs)
	connectorstest.WantOutcomes(t, rep, false)
	if got, want := f.sb.Calls(sbx.OpBulkQuantity), 1+5; got != want {
		t.Errorf("bulk calls: got %d, want %d (one 429, then 120 in 5)", got, want)
	}
	results := f.Inbox.TakeResults()
	if got, want := len(results), 120; got != want {
		t.Fatalf("results: got %d, want %d", got, want)
	}
	for _, r := range results {
		sku := r["channel_sku"].(string)
		if sku == "SKU-077" {
			if r["ok"] != false || !strings.Contains(fmt.Sprint(r["error"]), "SKU-077") {
				t.Errorf("unknown SKU result: %v, want failed naming the SKU", r)
			}
			continue
		}
		if r["ok"] != true {
			t.Errorf("%s: %v, want ok", sku, r)
		}
		var n int
		_, _ = fmt.Sscanf(sku, "SKU-%d", &n)
		if q, _ := f.sb.Quantity(seller, sku); q != int64(n+1) {
			t.Errorf("%s shows %d, want %d", sku, q, n+1)
		}
	}
	connectorstest.WantUnder(t, f.sb, sbx.OpBulkQuantity)
}

// TestRevisionLimit: a listing pushed more often than its revisions allow is put off, never
// failed: the pushes past the bucket's burst get no result and a retry time, and eBay sees
// no more revisions than the bucket allows (under its 250 a day). Its batch mates go out.
func TestRevisionLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 120*time.Second)
	f.sb.AddListing(seller, "HOT", 0)
	f.sb.AddListing(seller, "COLD", 0)
	burst := ebay.RevisionLimit.Burst
	rt := f.Runtime(5 * time.Second)
	for v := range burst {
		rep := rt.Push(c, []connectors.Message{f.Quantity("HOT", int64(v), int64(v+1))})
		if o := rep.Outcomes[0]; o.Err != nil || !o.RetryAt.IsZero() {
			t.Fatalf("push %d: %+v, want done", v, o)
		}
	}
	start := time.Now()
	rep := rt.Push(c, []connectors.Message{f.Quantity("HOT", 100, 100), f.Quantity("HOT", 101, 101), f.Quantity("COLD", 7, 1)})
	for i, o := range rep.Outcomes[:2] {
		if o.RetryAt.Before(start.Add(5 * time.Minute)) {
			t.Errorf("push of HOT past the limit, message %d: %+v, want put off by minutes", i, o)
		}
	}
	if o := rep.Outcomes[2]; !o.RetryAt.IsZero() || o.Err != nil {
		t.Errorf("COLD: %+v, want done", o)
	}
	results := f.Inbox.TakeResults()
	if got, want := len(results), burst+1; got != want {
		t.Errorf("results: got %d, want %d (none for the listing put off)", got, want)
	}
	for _, r := range results {
		if r["ok"] != true {
			t.Errorf("result %v, want ok", r)
		}
	}
	if got, want := f.sb.Revisions(seller, "HOT"), burst; got != want {
		t.Errorf("HOT revisions at eBay: got %d, want %d", got, want)
	}
	if q, _ := f.sb.Quantity(seller, "COLD"); q != 7 {
		t.Errorf("COLD shows %d, want 7", q)
	}
}

// TestTracking: a shipment posts one shipping fulfillment with its lines (eBay line item
// ids), quantities, eBay's carrier code and the shipped date; the same shipment again is ok
// (its tracking is on the lines already); another eBay refuses (the lines shipped already)
// is answered failed with eBay's message.
func TestTracking(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	o := sbx.NewOrder("12-00001-00001", "SKU-A", 2, time.Now())
	second := o.LineItems[0]
	second.LineItemID, second.SKU, second.Quantity = "12-00001-00001-2", "SKU-B", 3
	o.LineItems = append(o.LineItems, second)
	f.sb.PutOrder(seller, o)
	rt := f.Runtime(10 * time.Second)
	rep := rt.Push(c, []connectors.Message{f.tracking(o.OrderID, "S1", "Royal Mail",
		map[string]any{"order_item_ref": "12-00001-00001-1", "sku": "SKU-A", "quantity": 2},
		map[string]any{"order_item_ref": "12-00001-00001-2", "sku": "SKU-B", "quantity": 1})})
	if out := rep.Outcomes[0]; out.Err != nil || !out.RetryAt.IsZero() {
		t.Fatalf("outcome %+v", out)
	}
	got := f.sb.Fulfillments(seller, o.OrderID)
	if len(got) != 1 {
		t.Fatalf("fulfillments: got %d, want 1", len(got))
	}
	if g, want := fmt.Sprint(got[0]), "{[{12-00001-00001-1 2} {12-00001-00001-2 1}] 2026-11-20T10:00:00.000Z RoyalMail 9400S1}"; g != want {
		t.Errorf("fulfillment: got %s, want %s", g, want)
	}
	if r := f.Inbox.TakeResults(); len(r) != 1 || r[0]["ok"] != true {
		t.Errorf("results %v, want one ok", r)
	}
	rt.Push(c, []connectors.Message{f.tracking(o.OrderID, "S1", "Royal Mail",
		map[string]any{"order_item_ref": "12-00001-00001-1", "sku": "SKU-A", "quantity": 2},
		map[string]any{"order_item_ref": "12-00001-00001-2", "sku": "SKU-B", "quantity": 1})})
	if r := f.Inbox.TakeResults(); len(r) != 1 || r[0]["ok"] != true || len(f.sb.Fulfillments(seller, o.OrderID)) != 1 {
		t.Errorf("the same shipment again: results %v, want one ok and still one fulfillment", r)
	}
	rt.Push(c, []connectors.Message{f.tracking(o.OrderID, "S2", "USPS",
		map[string]any{"order_item_ref": "12-00001-00001-1", "sku": "SKU-A", "quantity": 1})})
	r := f.Inbox.TakeResults()
	if len(r) != 1 || r[0]["ok"] != false || !strings.Contains(fmt.Sprint(r[0]["error"]), "exceeds what remains to ship") {
		t.Errorf("refused shipment results %v, want failed with eBay's message", r)
	}
	if got, want := len(f.sb.Fulfillments(seller, o.OrderID)), 1; got != want {
		t.Errorf("fulfillments after the refusal: got %d, want %d", got, want)
	}
}

// TestRefusedRefreshToken: a refresh token eBay refuses (invalid_grant) disconnects the
// channel on the third refusal in a row.
func TestRefusedRefreshToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	f.sb.Refuse(seller, true)
	var err error
	for range connectors.RefusalsToDisconnect {
		_, err = f.Runtime(5*time.Second).Poll(c, f.Ch)
	}
	var d *connectors.Disconnected
	if !errors.As(err, &d) || !strings.Contains(d.Reason, "invalid_grant") {
		t.Fatalf("third refusal: got %v, want disconnected naming invalid_grant", err)
	}
}
