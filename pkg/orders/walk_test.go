package orders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// walkLimit is the page size of every traversal.
const walkLimit = 100

// walkList is one paged list of a walkWorld: its path, the partition
// holding its items (docs/data-model.md), how an entry of a page is named
// and the names of the world's items in the list's order.
type walkList struct {
	name, path, kind string
	key              func(entry map[string]any) string
	want             func(n int) []string
}

// skus are the SKUs of a walkWorld of n in byte order: "S", then the
// seeded products.
func skus(n int) []string {
	out := []string{"S"}
	for i := range n {
		out = append(out, productSKU(i))
	}
	return out
}

var walkLists = []walkList{
	{name: "products", path: "/products", kind: "P", want: skus,
		key: func(e map[string]any) string { return fmt.Sprint(e["sku"]) }},
	{name: "inventory", path: "/inventory", kind: "INV", want: skus,
		key: func(e map[string]any) string { return fmt.Sprint(e["sku"]) }},
	{name: "orders", path: "/orders", kind: "O",
		key: func(e map[string]any) string { return fmt.Sprint(e["display_ref"]) },
		want: func(n int) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = fmt.Sprintf("SEED-%07d", i+1) // seedOrder's, by ordered_at
			}
			return out
		}},
}

// walkPage is what one request of a traversal cost and returned.
type walkPage struct {
	calls int
	rcu   float64
	took  time.Duration
	keys  []string
}

// walk traverses every page of l at limit 100, pages 1, 3, 5... through
// the first gateway and 2, 4, 6... through the second. By page number it
// goes on until a page holds fewer than the limit (an empty page past the
// end when the count is a multiple of it: a client of a list without
// Total-Pages must ask for that page too); by cursor it starts with an
// empty cursor and follows each page's Link rel="next" until a page has
// none. Each request has its own meter. The list's function is first
// started in both gateways with a request it refuses (page=0, 422, no
// read but the rate limiter's write), so no page's time holds a cold
// start.
func (w *walkWorld) walk(tb testing.TB, l walkList, byCursor bool) []walkPage {
	tb.Helper()
	for _, g := range w.gws {
		if rec := serveAs(context.Background(), g, w.acct, http.MethodGet, l.path+"?page=0"); rec.Code != http.StatusUnprocessableEntity {
			tb.Fatalf("GET %s?page=0: status %d, want 422", l.path, rec.Code)
		}
	}
	var pages []walkPage
	next := fmt.Sprintf("%s?limit=%d&cursor=", l.path, walkLimit)
	for n := 1; ; n++ {
		ctx, meter := store.WithMeter(context.Background())
		path := fmt.Sprintf("%s?limit=%d&page=%d", l.path, walkLimit, n)
		if byCursor {
			path = next
		}
		start := time.Now()
		rec := serveAs(ctx, w.gws[(n-1)%2], w.acct, http.MethodGet, path)
		took := time.Since(start)
		if rec.Code != http.StatusOK {
			tb.Fatalf("GET %s: status %d: %.300s", path, rec.Code, rec.Body.String())
		}
		var entries []map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &entries); err != nil {
			tb.Fatalf("GET %s: %v", path, err)
		}
		// The rate limiter's conditional UpdateItem is not the list's: a list writes none.
		p := walkPage{calls: meter.Calls() - meter.Ops()["UpdateItem"], rcu: meter.ReadUnits(), took: took}
		for _, e := range entries {
			p.keys = append(p.keys, l.key(e))
		}
		pages = append(pages, p)
		if byCursor {
			var ok bool
			if next, ok = nextPath(tb, w.gws[0], rec.Header().Get("Link")); !ok {
				return pages
			}
		} else if len(entries) < walkLimit {
			return pages
		}
	}
}

// nextPath is the path, under g's stage, of a Link header's rel="next"
// (false when there is none).
func nextPath(tb testing.TB, g *testenv.Gateway, link string) (string, bool) {
	tb.Helper()
	if link == "" {
		return "", false
	}
	target, rel, ok := strings.Cut(link, ">; ")
	if !ok || rel != `rel="next"` || !strings.HasPrefix(target, "</"+g.Stage()+"/") {
		tb.Fatalf("Link %q: want <path>; rel=\"next\" under the stage", link)
	}
	return strings.TrimPrefix(target, "</"+g.Stage()), true
}

// onceRCU is the read capacity of reading each item of l once: an
// eventually consistent Query of its partition to the end, as the lists
// read their pages.
func (w *walkWorld) onceRCU(tb testing.TB, l walkList) float64 {
	tb.Helper()
	ctx, meter := store.WithMeter(context.Background())
	items, err := w.env.Deps.Table.QueryAll(ctx, store.PK(w.acct.ID, l.kind))
	if err != nil {
		tb.Fatal(err)
	}
	if want := len(l.want(w.n)); len(items) != want || meter.ReadUnits() == 0 {
		tb.Fatalf("%s: %d items read for %g RCU, want %d items", l.name, len(items), meter.ReadUnits(), want)
	}
	return meter.ReadUnits()
}

// TestWalkSeesEachOnce walks each list of a 250-order world by page
// number and by cursor, its pages taking turns between two gateways, and
// checks that every item comes exactly once and in the list's order, on
// three pages; by cursor each page is one DynamoDB call.
func TestWalkSeesEachOnce(t *testing.T) {
	w := newWalkWorld(t, 250)
	for _, l := range walkLists {
		for _, byCursor := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s cursor=%v", l.name, byCursor), func(t *testing.T) {
				checkWalk(t, w, l, w.walk(t, l, byCursor), byCursor)
			})
		}
	}
}

// checkWalk checks the pages of a walk of l in w: every item once, in
// order, on three pages; by cursor, each page one call.
func checkWalk(t *testing.T, w *walkWorld, l walkList, pages []walkPage, byCursor bool) {
	t.Helper()
	var got []string
	for _, p := range pages {
		got = append(got, p.keys...)
	}
	if want := l.want(w.n); !slices.Equal(got, want) {
		t.Errorf("%d keys, want %d in order; %s", len(got), len(want), firstDiff(got, want))
	}
	if len(pages) != 3 {
		t.Errorf("%d pages, want 3", len(pages))
	}
	for i, p := range pages {
		if byCursor && p.calls != 1 {
			t.Errorf("page %d: %d calls, want 1", i+1, p.calls)
		}
	}
}

// firstDiff says where got and want first differ.
func firstDiff(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("key %d is %q, want %q", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("one is a prefix of the other (%d and %d keys)", len(got), len(want))
}

// BenchmarkWalk reports one full traversal (walk) of GET /products,
// GET /inventory and GET /orders at limit 100, with 1,000 and 10,000 of
// each in the account, pages alternating between two gateways, by page
// number (products, inventory, orders) and by cursor (products-cursor,
// ...: each page one Query, no cursor item, no count). It walks
// once whatever -benchtime asks (a walk of 10,000 products takes minutes
// today, and a second walk would find the orders' page starts cached):
// ddb-calls/op and ddb-rcu/op are the walk's totals and ns/op the sum of
// its pages' times (`make bench` prints it as ms/request); rcu/item its
// read units per item; first-rcu, last-rcu, first-ms and last-ms those of
// its first page and of its last full page (the lists of products and
// inventory hold N+1 items, the shop's "S" and the N seeded, so their
// last page holds one); x-once its read units over those
// of reading each item once (onceRCU), the plain ratio issue 30 holds to
// at most 1.1; last/first the last full page's read units over the
// first's (at most 1.2); calls/page the DynamoDB calls of a page, reads
// and the cursor's write (the rate limiter's write is not counted); pages
// its requests.
//
// It lives with the orders' tests, though it spans three domains, because
// only this package's test-only item builders (seed) write orders in bulk;
// the import, the one other way in, takes about 25 ms an order on the
// local stack. The two gateways share one process, so what a function
// keeps in package variables is shared by both, unlike two Lambda
// instances (the orders list keeps none: its page starts are cursor items,
// store.Table.Page).
// The stream consumers (events, channel sync) are still working through
// the seed while the pages are read: waiting for them takes longer than
// testenv.Drain allows at 10,000, so the times are those of a busy stack,
// and a product read before its quantity is synced is a little smaller.
// Seeding takes minutes, so `go test` without -bench does not run it.
func BenchmarkWalk(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			w := newWalkWorld(b, n)
			for _, l := range walkLists {
				once := w.onceRCU(b, l)
				b.Run(l.name, func(b *testing.B) { reportWalk(b, w.walk(b, l, false), len(l.want(n)), once) })
				b.Run(l.name+"-cursor", func(b *testing.B) { reportWalk(b, w.walk(b, l, true), len(l.want(n)), once) })
			}
		})
	}
}

// reportWalk reports the metrics of BenchmarkWalk for the pages of a walk
// over items items whose single read costs once.
func reportWalk(b *testing.B, pages []walkPage, items int, once float64) {
	calls, rcu, took := 0, 0.0, time.Duration(0)
	for _, p := range pages {
		calls, rcu, took = calls+p.calls, rcu+p.rcu, took+p.took
	}
	first, last := pages[0], pages[0]
	for _, p := range pages {
		if len(p.keys) == walkLimit {
			last = p
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(float64(took.Nanoseconds()), "ns/op")
	b.ReportMetric(float64(calls), "ddb-calls/op")
	b.ReportMetric(rcu, "ddb-rcu/op")
	b.ReportMetric(rcu/float64(items), "rcu/item")
	b.ReportMetric(first.rcu, "first-rcu")
	b.ReportMetric(last.rcu, "last-rcu")
	b.ReportMetric(ms(first.took), "first-ms")
	b.ReportMetric(ms(last.took), "last-ms")
	b.ReportMetric(rcu/once, "x-once")
	b.ReportMetric(last.rcu/first.rcu, "last/first")
	b.ReportMetric(float64(calls)/float64(len(pages)), "calls/page")
	b.ReportMetric(float64(len(pages)), "pages")
}
