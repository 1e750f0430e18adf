package amazon_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestOrdersImport: a seller's 250 orders across 3 pages of getOrders import once each,
// with one getOrderItems each; orders changed later (shipped elsewhere, cancelled) come
// again with the change; a poll after a failure resumes without gaps; a quiet poll costs one
// getOrders. The sandbox and the connector use faster getOrders and getOrderItems limits
// than the published ones (fast), and no call comes over them.
func TestOrdersImport(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, fast)
	c := ctx(t, 2*time.Minute)
	rt := f.Runtime(0)
	base := time.Now().Add(-20 * time.Hour).Truncate(time.Second)
	for i := range 250 {
		f.order(fmt.Sprintf("111-%07d-0000001", i), "Unshipped", base.Add(time.Duration(i)*time.Minute), fmt.Sprintf("SKU-%d", i%7))
	}
	res, err := rt.Poll(c, f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	got := f.Inbox.TakeOrders()
	if res.Pages != 3 || res.Orders != 250 || len(got) != 250 {
		t.Fatalf("poll: %d pages, %d orders, %d distinct, want 3, 250, 250", res.Pages, res.Orders, len(got))
	}
	for ref, docs := range got {
		if len(docs) != 1 {
			t.Errorf("order %s sent %d times, want once", ref, len(docs))
		}
	}
	doc := got["111-0000007-0000001"][0]
	items := doc["items"].([]any)
	line := items[0].(map[string]any)
	for k, want := range map[string]any{"payment_status": "all", "total": 19.99, "shipping_city": "Seattle", "shipping_country_code": "US"} {
		if doc[k] != want {
			t.Errorf("document %s = %v, want %v", k, doc[k], want)
		}
	}
	if line["sku"] != "SKU-0" || line["order_item_ref"] != "111-0000007-0000001-1" || line["quantity"] != 1.0 || line["status"] != "Unshipped" {
		t.Errorf("line %v", line)
	}
	if got, want := f.sb.Calls(amazon.OpGetOrders), 3; got != want {
		t.Errorf("%d getOrders, want %d", got, want)
	}
	if got, want := f.sb.Calls(amazon.OpGetOrderItems), 250; got != want {
		t.Errorf("%d getOrderItems, want %d", got, want)
	}

	t.Run("quiet", func(t *testing.T) {
		before, items := f.sb.Calls(amazon.OpGetOrders), f.sb.Calls(amazon.OpGetOrderItems)
		time.Sleep(1100 * time.Millisecond) // past the overlap
		if _, err := rt.Poll(c, f.Ch); err != nil {
			t.Fatal(err)
		}
		// The cursor is the newest change minus the overlap: the newest order comes again.
		if got := len(f.Inbox.TakeOrders()); got > 1 {
			t.Errorf("a quiet poll sent %d orders", got)
		}
		if got := f.sb.Calls(amazon.OpGetOrders) - before; got != 1 {
			t.Errorf("a quiet poll made %d getOrders, want 1", got)
		}
		if got := f.sb.Calls(amazon.OpGetOrderItems) - items; got > 1 {
			t.Errorf("a quiet poll made %d getOrderItems", got)
		}
	})

	t.Run("changed", func(t *testing.T) {
		now := time.Now().Truncate(time.Second)
		f.sb.SetOrderStatus(sellerID, "111-0000010-0000001", "Shipped", now)
		f.sb.SetOrderStatus(sellerID, "111-0000011-0000001", "Canceled", now)
		if _, err := rt.Poll(c, f.Ch); err != nil {
			t.Fatal(err)
		}
		got := f.Inbox.TakeOrders()
		shipped, cancelled := got["111-0000010-0000001"], got["111-0000011-0000001"]
		if len(shipped) != 1 || len(cancelled) != 1 {
			t.Fatalf("changed orders sent %d and %d times, want once each", len(shipped), len(cancelled))
		}
		if l := shipped[0]["items"].([]any)[0].(map[string]any); l["status"] != "Shipped" {
			t.Errorf("shipped elsewhere: line status %v, want Shipped", l["status"])
		}
		if got, want := cancelled[0]["cancelled_at"], now.UTC().Format(time.RFC3339); got != want {
			t.Errorf("cancelled_at %v, want %v", got, want)
		}
	})

	t.Run("resumes", func(t *testing.T) {
		now := time.Now().Truncate(time.Second)
		for i := range 5 {
			f.order(fmt.Sprintf("112-%07d-0000001", i), "Unshipped", now.Add(time.Duration(i)*time.Second), "SKU-1")
		}
		f.sb.FailNext(amazon.OpGetOrderItems, 1)
		if _, err := rt.Poll(c, f.Ch); err == nil {
			t.Fatal("a poll whose getOrderItems failed succeeded")
		}
		if got := f.Inbox.TakeOrders(); len(got) != 0 {
			t.Errorf("the failed poll sent %d orders, want none", len(got))
		}
		if _, err := rt.Poll(c, f.Ch); err != nil {
			t.Fatal(err)
		}
		got := f.Inbox.TakeOrders()
		for i := range 5 {
			if ref := fmt.Sprintf("112-%07d-0000001", i); len(got[ref]) != 1 {
				t.Errorf("after the failure, %s sent %d times, want once", ref, len(got[ref]))
			}
		}
	})
	connectorstest.WantUnder(t, f.sb, amazon.OpGetOrders, amazon.OpGetOrderItems)
}

// TestPendingOrder: a Pending order imports unpaid (it reserves stock, not shippable), and
// once Unshipped it comes again paid; Amazon refuses a confirmation of it while Pending.
func TestPendingOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, fast)
	c := ctx(t, time.Minute)
	rt := f.Runtime(0)
	f.order("113-0000001-0000001", "Pending", time.Now().Add(-time.Hour), "SKU-P")
	if _, err := rt.Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	doc := f.Inbox.TakeOrders()["113-0000001-0000001"]
	if len(doc) != 1 || doc[0]["payment_status"] != "none" || doc[0]["items"].([]any)[0].(map[string]any)["status"] != "Pending" {
		t.Fatalf("pending order: %v", doc)
	}
	f.sb.SetOrderStatus(sellerID, "113-0000001-0000001", "Unshipped", time.Now())
	if _, err := rt.Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	if doc := f.Inbox.TakeOrders()["113-0000001-0000001"]; len(doc) != 1 || doc[0]["payment_status"] != "all" {
		t.Fatalf("unshipped order: %v", doc)
	}
}

// TestBadAnswers: malformed JSON, a missing payload and 500s fail the poll (an error naming
// what was wrong), nothing of the page is sent, and the next poll imports everything.
func TestBadAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		break_ func(f *fixture)
		want   string
	}{
		{"malformed orders", func(f *fixture) { f.sb.BreakNext(amazon.OpGetOrders, `{"payload":{"Orders":[{`) }, "malformed answer"},
		{"no payload", func(f *fixture) { f.sb.BreakNext(amazon.OpGetOrders, `{"errors":[]}`) }, "no payload"},
		{"malformed items", func(f *fixture) { f.sb.BreakNext(amazon.OpGetOrderItems, `not json`) }, "malformed answer"},
		{"500", func(f *fixture) { f.sb.FailNext(amazon.OpGetOrders, 1) }, "status 500: InternalFailure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, &amazon.Connector{}, fast)
			c := ctx(t, time.Minute)
			rt := f.Runtime(0)
			for i := range 3 {
				f.order(fmt.Sprintf("114-%07d-0000001", i), "Unshipped", time.Now().Add(-time.Hour+time.Duration(i)*time.Second), "SKU-B")
			}
			tt.break_(f)
			_, err := rt.Poll(c, f.Ch)
			if err == nil || !contains(err.Error(), tt.want) {
				t.Fatalf("poll: %v, want an error saying %q", err, tt.want)
			}
			if got := f.Inbox.TakeOrders(); len(got) != 0 {
				t.Errorf("the failed poll sent %d orders, want none", len(got))
			}
			if _, err := rt.Poll(c, f.Ch); err != nil {
				t.Fatal(err)
			}
			if got := f.Inbox.TakeOrders(); len(got) != 3 {
				t.Errorf("the next poll sent %d orders, want 3", len(got))
			}
		})
	}
}

// TestBadOrder: a bad order first on the page does not hold up the good one after it, which
// is imported in the same poll. A line without SellerSKU (optional) imports with its ASIN as
// sku (no product has it: the line is unassigned); an order lacking a required field is
// left out and refused (PollResult.Refused, the channel's last error), and the poll succeeds.
func TestBadOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		place   func(f *fixture, id string, at time.Time)
		sku     string // the bad order's line sku once imported, "" for not imported
		refused bool
	}{
		{"line without SellerSKU", func(f *fixture, id string, at time.Time) { f.order(id, "Unshipped", at, "") }, "B000TEST", false},
		{"order without PurchaseDate", func(f *fixture, id string, at time.Time) {
			f.sb.PutOrder(sellerID, amazonsb.StoredOrder{Order: amazonsb.Order{AmazonOrderID: id, OrderStatus: "Unshipped",
				LastUpdateDate: at.UTC().Format(time.RFC3339), FulfillmentChannel: "MFN"}})
		}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, &amazon.Connector{}, fast)
			bad, good := "115-0000001-0000001", "115-0000002-0000001"
			tt.place(f, bad, time.Now().Add(-2*time.Minute))
			f.order(good, "Unshipped", time.Now().Add(-time.Minute), "SKU-G")
			res, err := f.Runtime(0).Poll(ctx(t, time.Minute), f.Ch)
			if err != nil {
				t.Fatal(err)
			}
			got := f.Inbox.TakeOrders()
			if len(got[good]) != 1 {
				t.Errorf("the good order after the bad one: sent %d times, want once", len(got[good]))
			}
			sku := ""
			if docs := got[bad]; len(docs) == 1 {
				sku, _ = docs[0]["items"].([]any)[0].(map[string]any)["sku"].(string)
			}
			if sku != tt.sku {
				t.Errorf("the bad order's line sku: got %q, want %q", sku, tt.sku)
			}
			if gotRefused := res.Refused != nil && contains(res.Refused.Error(), bad); gotRefused != tt.refused {
				t.Errorf("refused naming %s: got %v (%v), want %v", bad, gotRefused, res.Refused, tt.refused)
			}
			if res.Cursor.IsZero() {
				t.Errorf("the poll kept no cursor")
			}
		})
	}
}

// TestRefusedToken: a revoked refresh token is refused three polls in a row and disconnects
// the channel; the access token is exchanged once for every call before.
func TestRefusedToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, fast)
	c := ctx(t, time.Minute)
	for range 3 {
		if _, err := f.Runtime(0).Poll(c, f.Ch); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.sb.Calls(amazon.OpToken); got != 1 {
		t.Errorf("%d token exchanges for 3 polls of 3 instances, want 1", got)
	}
	if d := f.refusedThrice(t, c); !contains(d.Reason, "invalid_grant") {
		t.Fatalf("disconnected: %s, want Amazon's invalid_grant", d.Reason)
	}
}

// refusedThrice revokes the seller's refresh token and polls three times: the third poll
// must disconnect the channel, whose Disconnected it returns.
func (f *fixture) refusedThrice(t *testing.T, c context.Context) *connectors.Disconnected {
	t.Helper()
	f.sb.Refuse(sellerID, true)
	var err error
	for range 3 {
		_, err = f.Runtime(0).Poll(c, f.Ch)
	}
	var d *connectors.Disconnected
	if !errors.As(err, &d) {
		t.Fatalf("third poll with the refresh token refused: %v, want Disconnected", err)
	}
	return d
}

// contains reports whether s holds sub.
func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestBurstProgresses: when getOrderItems' limit cuts a page short, the page ends with the
// orders done and a page token of the connector's own; that token goes on at the first order
// not done (the page's getOrders read again, no order's items read twice), until the page is
// done and the token is Amazon's next (none here).
func TestBurstProgresses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, map[string]connectors.Limit{
		amazon.OpGetOrders: {Rate: 5, Burst: 5}, amazon.OpGetOrderItems: {Rate: 1, Burst: 2}})
	c := ctx(t, time.Minute)
	for i := range 5 {
		f.order(fmt.Sprintf("118-0000001-000000%d", i), "Unshipped", time.Now().Add(-time.Hour+time.Duration(i)*time.Second), "SKU-A")
	}
	s, err := f.Runtime(time.Millisecond).Session(c, f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	q := connectors.OrdersQuery{Since: time.Now().Add(-2 * time.Hour)}
	seen := map[string]int{}
	var sizes []int
	for range 5 {
		page, err := f.conn.PollOrders(c, s, q)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(page.Orders))
		for _, o := range page.Orders {
			seen[o.Ref]++
		}
		if page.Next == "" {
			break
		}
		if page.Next == q.Page {
			t.Fatalf("the page answered its own token again")
		}
		q.Page = page.Next
		time.Sleep(2100 * time.Millisecond) // the bucket of getOrderItems full again
	}
	if len(seen) != 5 || len(sizes) < 2 || sizes[0] != 2 {
		t.Errorf("orders %v in pages of %v, want each of the 5 once, the first page cut short after 2", seen, sizes)
	}
	for ref, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d pages, want 1", ref, n)
		}
	}
	if got := f.sb.Calls(amazon.OpGetOrderItems); got != 5 {
		t.Errorf("%d getOrderItems for 5 orders, want 5 (none read twice)", got)
	}
}

// TestDeadlineCutsPage: a poll that comes within the items margin of its deadline ends its
// page with the orders done (at least one) and a token of the connector's own, which the
// next poll goes on from: every order once.
func TestDeadlineCutsPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, fast)
	for i := range 3 {
		f.order(fmt.Sprintf("118-0000002-000000%d", i), "Unshipped", time.Now().Add(-time.Hour+time.Duration(i)*time.Second), "SKU-A")
	}
	s, err := f.Runtime(0).Session(ctx(t, time.Minute), f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	q := connectors.OrdersQuery{Since: time.Now().Add(-2 * time.Hour)}
	near, cancel := context.WithTimeout(context.Background(), 5*time.Second) // within the margin
	defer cancel()
	first, err := f.conn.PollOrders(near, s, q)
	if err != nil {
		t.Fatal(err)
	}
	q.Page = first.Next
	rest, err := f.conn.PollOrders(ctx(t, time.Minute), s, q)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, o := range append(first.Orders, rest.Orders...) {
		seen[o.Ref]++
	}
	if got, want := []int{len(first.Orders), len(rest.Orders), len(seen)}, []int{1, 2, 3}; !slices.Equal(got, want) || rest.Next != "" {
		t.Errorf("pages of %d and %d orders, %d orders in all, next %q; want %v and no next", got[0], got[1], got[2], rest.Next, want)
	}
	if got := f.sb.Calls(amazon.OpGetOrderItems); got != 3 {
		t.Errorf("%d getOrderItems for 3 orders, want 3 (none read twice)", got)
	}
}
