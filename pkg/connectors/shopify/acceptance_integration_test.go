package shopify_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestPollOrders: 300 orders import in pages of shopify.OrdersPage, once each; a
// cancellation and a refund made later reach ours on the next poll; a poll that fails
// midway resumes from its cursor with no order missed; the answers' cost is within the
// bucket (a shop restoring 1,000 points a second, as a large plan's, so that the test does
// not wait for the 300 orders' points).
func TestPollOrders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sb.SetBucket(f.token, 1000, 1000)
	f.sb.AddVariant(f.token, "MUG-1", 10)
	c := ctx(t, 120*time.Second)
	base := time.Now().Add(-2 * time.Hour)
	var orders []sbx.Order
	for i := range 300 {
		orders = append(orders, f.sb.PutOrder(f.token, base.Add(time.Duration(i)*time.Second),
			sbx.LineInput{SKU: "MUG-1", Quantity: 2, Price: "12.50"}, sbx.LineInput{SKU: "TEE-1", Quantity: 1, Price: "20.00"}))
	}
	res, err := f.rt.Poll(c, f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	docs := f.Inbox.TakeDocs()
	seen := map[string]int{}
	for _, d := range docs {
		seen[d["display_ref"].(string)]++
	}
	if got, want := fmt.Sprint(res.Pages, len(seen), len(docs)), fmt.Sprint((300+shopify.OrdersPage-1)/shopify.OrdersPage, 300, 300); got != want {
		t.Fatalf("pages, distinct orders, documents = %s, want %s", got, want)
	}
	first := docs[0]
	items := first["items"].([]any)
	line := items[0].(map[string]any)
	if got, want := fmt.Sprint(first["channel_uuid"], first["payment_status"], first["total"], first["shipping_country_code"], len(items),
		line["sku"], line["quantity"], line["unit_price"], strings.HasPrefix(line["order_item_ref"].(string), "gid://shopify/LineItem/")),
		fmt.Sprint(f.Ch.UUID, "all", 50.0, "US", 2, "MUG-1", 2, 12.5, true); got != want {
		t.Errorf("first document %v\n= %s, want %s", first, got, want)
	}

	// A cancellation and a refund, later, and an order of more lines than a page has.
	var many []sbx.LineInput
	for i := range 60 {
		many = append(many, sbx.LineInput{SKU: fmt.Sprintf("L-%02d", i), Quantity: 1, Price: "1.00"})
	}
	long := f.sb.PutOrder(f.token, time.Now(), many...)
	now := time.Now()
	f.sb.ChangeOrder(f.token, orders[10].ID, now, sbx.Cancel(now))
	f.sb.ChangeOrder(f.token, orders[20].ID, now, sbx.Refund)
	if _, err := f.rt.Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	docs = f.Inbox.TakeDocs()
	byRef := map[string]map[string]any{}
	for _, d := range docs {
		byRef[d["display_ref"].(string)] = d
	}
	cancelled, refunded := byRef[orders[10].Name], byRef[orders[20].Name]
	if got := len(byRef[long.Name]["items"].([]any)); got != 60 {
		t.Errorf("the order of 60 lines came with %d", got)
	}
	if cancelled == nil || cancelled["cancelled_at"] == nil {
		t.Errorf("the cancelled order came as %v", cancelled)
	}
	if refunded == nil || refunded["payment_status"] != "none" || refunded["items"].([]any)[0].(map[string]any)["cancelled_at"] == nil {
		t.Errorf("the refunded order came as %v", refunded)
	}

	// 200 new orders; the poll fails after its first page (the inbox), then a 500.
	for i := range 200 {
		orders = append(orders, f.sb.PutOrder(f.token, time.Now().Add(time.Duration(i)*time.Millisecond), sbx.LineInput{SKU: "MUG-1", Quantity: 1, Price: "12.50"}))
	}
	sent := f.Inbox.Sends()
	f.Inbox.SetFail(func(n int) bool { return n == sent+2 })
	if _, err := f.rt.Poll(c, f.Ch); err == nil {
		t.Fatal("a poll whose second page the inbox refused did not fail")
	}
	f.sb.FailNext(sbx.OpGraphQL, 1)
	if _, err := f.rt.Poll(c, f.Ch); err == nil || !strings.Contains(err.Error(), "status 500") {
		t.Fatalf("a poll answered 500: %v", err)
	}
	if _, err := f.rt.Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	docs = f.Inbox.TakeDocs()
	seen = map[string]int{}
	for _, d := range docs {
		seen[d["display_ref"].(string)]++
	}
	for _, o := range orders[300:] {
		if seen[o.Name] == 0 {
			t.Errorf("order %s never reached the inbox", o.Name)
		}
	}
	if n, over := f.sb.Throttled(), f.sb.OverMax(); n != 0 || over != 0 {
		t.Errorf("%d calls refused for cost, %d over the single query limit", n, over)
	}
	validateRequests(t, f.sb)
}

// TestPushQuantities: 100 listings' quantities reach the shop in 2 batched mutations (each
// after one look-up by SKU) and every listing ends synced; an unknown SKU fails alone.
func TestPushQuantities(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 120*time.Second)
	var msgs []connectors.Message
	items := map[string]string{}
	for i := range 100 {
		sku := fmt.Sprintf("SKU-%03d", i)
		items[sku] = f.sb.AddVariant(f.token, sku, 5)
		msgs = append(msgs, f.quantity(sku, "", int64(i)))
	}
	msgs = append(msgs, f.quantity("NOPE", "", 3))
	results := f.push(t, c, msgs)
	ok := 0
	for _, r := range results {
		if r["ok"] == true {
			ok++
		} else if r["channel_sku"] != "NOPE" || !strings.Contains(fmt.Sprint(r["error"]), `no variant of the shop has the SKU "NOPE"`) {
			t.Errorf("result %v", r)
		}
	}
	if ok != 100 {
		t.Errorf("%d listings synced, want 100", ok)
	}
	for i := range 100 {
		sku := fmt.Sprintf("SKU-%03d", i)
		if got, _ := f.sb.Available(f.token, items[sku]); got != int64(i) {
			t.Errorf("%s shows %d, want %d", sku, got, i)
		}
	}
	if got := countOps(f.sb); got != "productVariants 3 inventorySetQuantities 2" {
		t.Errorf("calls: %s, want 3 look-ups (batches of 50, 50, 1) and 2 mutations (the unknown SKU has none)", got)
	}
	validateRequests(t, f.sb)
}

// countOps counts the sandbox's look-ups and mutations.
func countOps(sb *sbx.Shop) string {
	var look, set int
	for _, r := range sb.Requests() {
		switch {
		case strings.Contains(r.Query, "productVariants("):
			look++
		case strings.Contains(r.Query, "inventorySetQuantities("):
			set++
		}
	}
	return fmt.Sprintf("productVariants %d inventorySetQuantities %d", look, set)
}

// TestCompareQuantity: the connector called directly with a session of the runtime. A
// listing whose ref is its inventory item and whose channel quantity is known costs one
// mutation; a level changed in Shopify between the connector's read and its write is
// refused by changeFromQuantity, read again and set, ending at our quantity; the result
// carries the inventory item as the listing ref.
func TestCompareQuantity(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	s := f.session(t)
	a, b := f.sb.AddVariant(f.token, "A", 4), f.sb.AddVariant(f.token, "B", 9)
	four := int64(4)

	res, err := shopify.Connector.PushQuantities(c, s, []connectors.QuantityPush{{ChannelSKU: "A", ListingRef: a, Quantity: 6, ChannelQuantity: &four}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(res, countOps(f.sb)), fmt.Sprint([]connectors.QuantityResult{{ChannelSKU: "A", OK: true, ChannelQuantity: 6, ListingRef: a}},
		"productVariants 0 inventorySetQuantities 1"); got != want {
		t.Errorf("a known listing: %s, want %s", got, want)
	}

	// B is read (9), then changed in Shopify to 2 before the write.
	var once bool
	f.sb.BeforeSet = func() {
		if !once {
			once = true
			f.sb.SetAvailable(f.token, b, 2)
		}
	}
	res, err = shopify.Connector.PushQuantities(c, s, []connectors.QuantityPush{{ChannelSKU: "A", ListingRef: a, Quantity: 7, ChannelQuantity: ptr(6)}, {ChannelSKU: "B", Quantity: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := []connectors.QuantityResult{{ChannelSKU: "A", OK: true, ChannelQuantity: 7, ListingRef: a}, {ChannelSKU: "B", OK: true, ChannelQuantity: 1, ListingRef: b}}
	if fmt.Sprint(res) != fmt.Sprint(want) {
		t.Errorf("results %v, want %v", res, want)
	}
	gotA, _ := f.sb.Available(f.token, a)
	gotB, _ := f.sb.Available(f.token, b)
	if got := fmt.Sprint(gotA, " ", gotB, " ", countOps(f.sb)); got != "7 1 productVariants 2 inventorySetQuantities 3" {
		t.Errorf("levels and calls: %s, want 7 1 after 2 look-ups and 3 mutations (one refused as stale)", got)
	}

	// A listing ref whose channel quantity is stale (someone sold one in Shopify): read and set.
	f.sb.SetAvailable(f.token, a, 5)
	res, err = shopify.Connector.PushQuantities(c, s, []connectors.QuantityPush{{ChannelSKU: "A", ListingRef: a, Quantity: 8, ChannelQuantity: ptr(7)}})
	if err != nil || !res[0].OK {
		t.Fatalf("stale channel quantity: %v %v", res, err)
	}
	if got, _ := f.sb.Available(f.token, a); got != 8 {
		t.Errorf("A shows %d, want 8", got)
	}
	validateRequests(t, f.sb)
}

func ptr(n int64) *int64 { return &n }

// TestPostTracking: a shipment creates one fulfillment on the order's fulfillment order with
// its tracking; a partial shipment fulfils only its lines; one of more than remains open is
// failed, naming the line, and sends nothing.
func TestPostTracking(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	o := f.sb.PutOrder(f.token, time.Now(), sbx.LineInput{SKU: "A", Quantity: 3, Price: "1.00"}, sbx.LineInput{SKU: "B", Quantity: 1, Price: "2.00"})
	lineA, lineB := o.Lines[0].ID, o.Lines[1].ID
	second := f.tracking(o.Name, "sh-2", map[string]any{"order_item_ref": lineB, "sku": "B", "quantity": 1}, map[string]any{"order_item_ref": lineA, "sku": "A", "quantity": 2})
	second.Body = strings.ReplaceAll(second.Body, "1Z999", "1Z998") // another parcel
	results := f.push(t, c, []connectors.Message{
		f.tracking(o.Name, "sh-1", map[string]any{"order_item_ref": lineA, "sku": "A", "quantity": 2}),
		second,
		f.tracking("#9999", "sh-3", map[string]any{"order_item_ref": lineA, "sku": "A", "quantity": 1}),
	})
	got := make([]string, len(results))
	for i, r := range results {
		got[i] = fmt.Sprint(r["shipment_id"], " ", r["ok"], " ", r["error"])
	}
	want := []string{"sh-1 true <nil>",
		"sh-2 false shopify: order " + o.Name + ": no open fulfillment order holds 1 of line item " + lineA + " (closed, cancelled or on hold, or shipped already)",
		`sh-3 false shopify: no order of the shop is named "#9999"`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results\n%q\nwant\n%q", got, want)
	}
	fs := f.sb.Fulfillments(f.token, o.ID)
	foLineA := ""
	for _, fl := range fs[0].Lines {
		foLineA = fmt.Sprint(fl)
	}
	if len(fs) != 1 || len(fs[0].Lines) != 1 || foLineA != "2" || fs[0].Number != "1Z999" || fs[0].Company != "UPS" || !strings.Contains(fs[0].URL, "1Z999") {
		t.Errorf("fulfillments %+v, want one of line A x2 with the tracking", fs)
	}
	got2, _ := f.sb.GetOrder(f.token, o.ID)
	if st := got2.FulfillOrders[0]; st.Status != "IN_PROGRESS" || st.Lines[0].Remaining != 1 || st.Lines[1].Remaining != 1 {
		t.Errorf("fulfillment order %s: remaining %d, %d", st.Status, st.Lines[0].Remaining, st.Lines[1].Remaining)
	}
	validateRequests(t, f.sb)
}

// TestCostBudget: with the shop's bucket at 250 points restoring 50 a second (a look-up of
// 50 SKUs requests 202), 1,000 pushes (100 looked up by SKU, 900 by their listing ref) end
// synced and no call is refused for cost.
func TestCostBudget(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sb.SetBucket(f.token, 250, 50)
	c := ctx(t, 180*time.Second)
	var msgs []connectors.Message
	for i := range 1000 {
		sku := fmt.Sprintf("SKU-%04d", i)
		item := f.sb.AddVariant(f.token, sku, 0)
		ref := item
		if i < 100 {
			ref = ""
		}
		msgs = append(msgs, f.quantity(sku, ref, int64(i%7)))
	}
	start := time.Now()
	results := f.push(t, c, msgs)
	ok := 0
	for _, r := range results {
		if r["ok"] == true {
			ok++
		}
	}
	if ok != 1000 || f.sb.Throttled() != 0 {
		t.Errorf("%d synced of 1000, %d calls refused for cost", ok, f.sb.Throttled())
	}
	t.Logf("1000 pushes in %s: %s", time.Since(start).Round(time.Millisecond), countOps(f.sb))
	validateRequests(t, f.sb)
}

// TestThrottledWaits: a shop whose bucket another app emptied answers THROTTLED; the
// connector takes its throttleStatus, waits for the restore and the push ends synced. When
// the restore is further than the runtime waits, the push is put off, never failed.
func TestThrottledWaits(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	item := f.sb.AddVariant(f.token, "A", 1)
	// 2 points a second: the mutation's points are seconds away, so its first call is
	// refused however long a loaded machine takes to send it, and the wait is within the
	// runtime's 10 s.
	f.sb.SetBucket(f.token, 100, 2)
	f.sb.Spend(f.token, 100)
	rep := f.rt.Push(c, []connectors.Message{f.quantity("A", item, 3)})
	results := f.Inbox.TakeResults()
	if o := rep.Outcomes[0]; o.Err != nil || !o.RetryAt.IsZero() || len(results) != 1 || results[0]["ok"] != true {
		t.Fatalf("outcome %+v, results %v: want synced", o, results)
	}
	if got := f.sb.Throttled(); got != 1 {
		t.Errorf("%d calls refused for cost, want the 1 before the connector knew the bucket", got)
	}

	// A restore of 1 point a second: the 10 points of a mutation are 10 s away.
	f.sb.SetBucket(f.token, 100, 1)
	f.sb.Spend(f.token, 100)
	f.rt.MaxWait = time.Second
	rep = f.rt.Push(c, []connectors.Message{f.quantity("A", item, 4)})
	results = f.Inbox.TakeResults()
	if o := rep.Outcomes[0]; o.Err != nil || o.RetryAt.IsZero() || len(results) != 0 {
		t.Errorf("outcome %+v, results %v: want put off", o, results)
	}
	validateRequests(t, f.sb)
}

// TestBadAnswers: what a shop answers that the connector cannot use (malformed JSON, a
// GraphQL error, a 5xx, no data, userErrors of the whole input) fails the push with a
// clear message, which multisell retries; a 401 is a refusal of the token.
func TestBadAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"malformed JSON", 200, `{"data": {`, "shopify: the answer is not JSON"},
		{"graphql error", 200, `{"errors":[{"message":"Field 'x' doesn't exist on type 'QueryRoot'","extensions":{"code":"undefinedField"}}]}`, "shopify: Field 'x' doesn't exist on type 'QueryRoot'"},
		{"5xx", 502, `<html>Bad Gateway</html>`, "shopify: status 502: <html>Bad Gateway</html>"},
		{"no data", 200, `{"data":null}`, "shopify: the answer has no data"},
		{"data of another shape", 200, `{"data":{"inventorySetQuantities":{"userErrors":"no"}}}`, "shopify: the answer's data is not what was asked"},
		{"userErrors of the input", 200, `{"data":{"inventorySetQuantities":{"inventoryAdjustmentGroup":null,"userErrors":[{"code":"INVALID_REASON","field":["input","reason"],"message":"The specified reason is invalid."}]}}}`, "shopify: The specified reason is invalid."},
		{"refused token", 401, `{"errors":"[API] Invalid API key or access token (unrecognized login or wrong password)"}`, "put off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			}))
			t.Cleanup(srv.Close)
			f.Ch.Endpoints.API = srv.URL
			f.rt.Channels = connectorstest.Channels{Ch: f.Ch}
			rep := f.rt.Push(ctx(t, 30*time.Second), []connectors.Message{f.quantity("A", "gid://shopify/InventoryItem/1", 3)})
			results := f.Inbox.TakeResults()
			got := "put off"
			if len(results) == 1 {
				got = fmt.Sprint(results[0]["ok"], " ", results[0]["error"])
			} else if rep.Outcomes[0].RetryAt.IsZero() {
				got = fmt.Sprintf("outcome %+v", rep.Outcomes[0])
			}
			want := tt.want
			if want != "put off" {
				want = "false " + want
			}
			if !strings.HasPrefix(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}
