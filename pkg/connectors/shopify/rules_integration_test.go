package shopify_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
)

// TestPollCost (issue 37, acceptance 2): with Shopify's published cost rules on in the
// sandbox, a poll of 300 orders of 1 to 60 lines imports every line, no request refused for
// cost (neither over the single query limit nor THROTTLED); each query's requested cost is
// logged. The shop restores 1,000 points a second (a large plan) so that the test does not
// wait for them.
func TestPollCost(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sb.SetBucket(f.token, 1000, 1000)
	c := ctx(t, 300*time.Second)
	base := time.Now().Add(-time.Hour)
	want := map[string]int{}
	for i := range 300 {
		var lines []sbx.LineInput
		for j := range 1 + i%60 {
			lines = append(lines, sbx.LineInput{SKU: fmt.Sprintf("L-%02d", j), Quantity: 1, Price: "1.00"})
		}
		o := f.sb.PutOrder(f.token, base.Add(time.Duration(i)*time.Second), lines...)
		want[o.Name] = len(lines)
	}
	if _, err := f.rt.Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, d := range f.Inbox.TakeDocs() {
		got[d["display_ref"].(string)] = len(d["items"].([]any))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lines imported by order differ from those placed")
	}
	most := 0
	for i, r := range f.sb.Requests() {
		kind, _, _ := strings.Cut(strings.TrimSpace(r.Query), "(")
		t.Logf("request %d: %s, requested cost %d", i+1, kind, r.Cost)
		most = max(most, r.Cost)
	}
	if n, over := f.sb.Throttled(), f.sb.OverMax(); n != 0 || over != 0 || most > sbx.MaxQueryCost {
		t.Errorf("%d requests THROTTLED, %d over the single query limit, the costliest %d", n, over, most)
	}
}

// TestCustomLine (issue 37, acceptance 3): an order with a line without a SKU (a custom
// item) imports whole: the line has a channel SKU of its own that no product has, and its
// price counts in the totals.
func TestCustomLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	o := f.sb.PutOrder(f.token, time.Now(), sbx.LineInput{SKU: "MUG-1", Quantity: 1, Price: "10.00"}, sbx.LineInput{Quantity: 1, Price: "2.50"})
	if _, err := f.rt.Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	docs := f.Inbox.TakeDocs()
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	items := docs[0]["items"].([]any)
	custom := items[1].(map[string]any)
	if got, want := fmt.Sprint(len(items), " ", custom["sku"], " ", custom["title"], " ", custom["price"], " ", docs[0]["subtotal"], " ", docs[0]["total"]),
		fmt.Sprint("2 shopify-custom-line:", strings.TrimPrefix(o.Lines[1].ID, "gid://shopify/LineItem/"), " Custom item 2.5 12.5 17.5"); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestTwoLocations (issue 37, acceptance 4): a shipment of lines assigned to two locations
// makes two fulfillments, each of its location's fulfillment order; a shipment of a line
// whose fulfillment order is on hold fails, naming it, and creates nothing.
func TestTwoLocations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	other := f.sb.AddLocation(f.token)
	o := f.sb.PutOrder(f.token, time.Now(), sbx.LineInput{SKU: "A", Quantity: 1, Price: "1.00"},
		sbx.LineInput{SKU: "B", Quantity: 2, Price: "1.00", Location: other}, sbx.LineInput{SKU: "C", Quantity: 1, Price: "1.00"})
	held := f.sb.PutOrder(f.token, time.Now(), sbx.LineInput{SKU: "A", Quantity: 1, Price: "1.00", Location: other})
	f.sb.SetFulfillmentOrderStatus(f.token, held.ID, other, "ON_HOLD")
	results := f.push(t, c, []connectors.Message{
		f.tracking(o.Name, "sh-1", map[string]any{"order_item_ref": o.Lines[0].ID, "sku": "A", "quantity": 1},
			map[string]any{"order_item_ref": o.Lines[1].ID, "sku": "B", "quantity": 2}),
		f.tracking(held.Name, "sh-2", map[string]any{"order_item_ref": held.Lines[0].ID, "sku": "A", "quantity": 1}),
	})
	if results[0]["ok"] != true || results[1]["ok"] != false ||
		!strings.Contains(fmt.Sprint(results[1]["error"]), "no open fulfillment order holds 1 of line item "+held.Lines[0].ID) {
		t.Errorf("results %v", results)
	}
	got, _ := f.sb.GetOrder(f.token, o.ID)
	foOf := map[string]string{} // fulfillment order line -> its location
	for _, fo := range got.FulfillOrders {
		for _, fl := range fo.Lines {
			foOf[fl.ID] = fo.Location
		}
	}
	var locs []string
	for _, fu := range f.sb.Fulfillments(f.token, o.ID) {
		for fl := range fu.Lines {
			locs = append(locs, foOf[fl])
			break
		}
	}
	if fmt.Sprint(locs) != fmt.Sprint([]string{f.location, other}) {
		t.Errorf("fulfillments at %v, want one at %s and one at %s", locs, f.location, other)
	}
	if n := len(f.sb.Fulfillments(f.token, held.ID)); n != 0 {
		t.Errorf("%d fulfillments of the order on hold", n)
	}
	validateRequests(t, f.sb)
}

// TestScopes (issue 37, acceptance 5): an app without a required access scope fails Verify
// as invalid, naming the scopes missing; without read_all_orders it connects.
func TestScopes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 30*time.Second)
	f.sb.SetScopes(f.token, "read_orders", "read_products", "write_inventory")
	err := f.rt.Verify(c, f.Ch, f.Ch.Credentials)
	if err == nil || !strings.Contains(err.Error(), "the app lacks the access scopes read_locations, write_merchant_managed_fulfillment_orders") {
		t.Errorf("verify without two scopes: %v", err)
	}
	f.sb.SetScopes(f.token, "read_orders", "write_products", "write_inventory", "read_locations", "write_merchant_managed_fulfillment_orders")
	if err := f.rt.Verify(c, f.Ch, f.Ch.Credentials); err != nil {
		t.Errorf("verify without read_all_orders: %v", err)
	}
}

// TestOrderMapping (issue 39, Shopify's part): an order placed in EUR with 2 lines and shipped
// whole through the sandbox's admin imports with its currency, totals adding up to the cent,
// every line shipped with the fulfillment's carrier and tracking number; a line then
// cancelled in part on Shopify (an order edit) comes with its cancelled quantity.
func TestOrderMapping(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	f.sb.BindChannel(f.token, f.Ch.UUID)
	f.sb.AddVariant(f.token, "MUG-1", 10)
	_, err := sandbox.PlaceOrder(c, f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID, SKU: "MUG-1", Quantity: 2, Lines: 2, Currency: "EUR", Shipped: true})
	if err != nil {
		t.Fatal(err)
	}
	open, err := sandbox.PlaceOrder(c, f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID, SKU: "MUG-1", Quantity: 3})
	if err != nil {
		t.Fatal(err)
	}
	if err := sandbox.ChangeLine(c, f.sb.URL, sandbox.LineChange{ChannelUUID: f.Ch.UUID, OrderID: open.ID, Line: 1, Cancelled: 1, Shipped: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.rt.Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	docs := map[int]map[string]any{}
	for _, d := range f.Inbox.TakeDocs() {
		docs[len(docs)] = d
	}
	if len(docs) != 2 {
		t.Fatalf("%d documents", len(docs))
	}
	line := func(d map[string]any, i int) string {
		it := d["items"].([]any)[i].(map[string]any)
		return fmt.Sprint(it["quantity"], " ", it["quantity_shipped"], " ", it["quantity_cancelled"], " ", it["carrier_name"], " ", it["tracking_number"] != nil)
	}
	a, b := docs[0], docs[1]
	if got, want := fmt.Sprint(a["currency"], " ", a["subtotal"], " ", a["shipping_cost"], " ", a["tax"], " ", a["total"], " | ", line(a, 0), " | ", line(a, 1)),
		"EUR 79.96 5 0 84.96 | 2 2 <nil> UPS true | 2 2 <nil> UPS true"; got != want {
		t.Errorf("shipped order: %s\nwant %s", got, want)
	}
	if got, want := fmt.Sprint(b["currency"], " ", line(b, 0)), "USD 3 1 1 UPS true"; got != want {
		t.Errorf("changed order: %s, want %s", got, want)
	}
}

// TestMaxCostShrinks: a shop that reckons a page costlier than the connector does (here: it
// refuses any orders page of more than 2) answers MAX_COST_EXCEEDED; the poll halves the page
// and asks again, and imports every order: never a failed poll.
func TestMaxCostShrinks(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	for range 5 {
		f.sb.PutOrder(f.token, time.Now(), sbx.LineInput{SKU: "A", Quantity: 1, Price: "1.00"})
	}
	f.sb.MaxOrdersPage = 2
	res, err := f.rt.Poll(c, f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Orders, " ", f.sb.OverMax() > 0); got != "5 true" {
		t.Errorf("orders imported, some refused for cost = %s, want 5 true", got)
	}
}
