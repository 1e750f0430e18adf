package listings_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
	"github.com/multisell/multisell/pkg/warehouses"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// world is an account with two warehouses, a product P stocked at both, an
// Amazon channel listing P by equal SKU, and an eBay channel with rules
// (half the stock, at most 6) listing "EB-P" linked explicitly to P.
type world struct {
	*orderstest.Fixture
	A, B   string // warehouses
	Amazon string // f.Channel
	EBay   string
}

func newWorld(t testing.TB) *world {
	t.Helper()
	f := orderstest.New(t)
	w := &world{Fixture: f, Amazon: f.Channel}
	w.A, w.B = f.Warehouse("A"), f.Warehouse("B")
	f.Product("P")
	f.Stock("P", w.A, 10)
	f.Stock("P", w.B, 5)
	ch, err := f.Env.Deps.Channels().Create(context.Background(), f.Acct.ID, channels.Input{Name: "eBay", Type: "eBay"})
	if err != nil {
		t.Fatal(err)
	}
	w.EBay = ch.UUID
	w.must(http.MethodPut, "/channels/"+w.EBay, map[string]any{"channel": map[string]any{"inventory_rules": map[string]any{"percent": 50, "max": 6}}})
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": "P", "listing_ref": "B0P"}})
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.EBay, "channel_sku": "EB-P", "sku": "P"}})
	return w
}

// must sends a request that has to succeed.
func (w *world) must(method, path string, body any) *testenv.Response {
	w.T.Helper()
	r := w.C.Do(method, path, body)
	if r.Status != http.StatusOK && r.Status != http.StatusCreated {
		w.T.Fatalf("%s %s: %d %s", method, path, r.Status, r)
	}
	return r
}

// listings returns GET /listings?query.
func (w *world) listings(query string) []listings.Listing {
	w.T.Helper()
	var out []listings.Listing
	w.must(http.MethodGet, "/listings?"+query, nil).JSON(w.T, &out)
	return out
}

// available is the stock of P at warehouses that are not archived, from
// the API.
func (w *world) available() int64 { return w.availableOf("P") }

// availableOf is the stock of the SKU at warehouses that are not archived,
// from the API.
func (w *world) availableOf(sku string) int64 {
	w.T.Helper()
	var whs []warehouses.Warehouse
	w.must(http.MethodGet, "/warehouses", nil).JSON(w.T, &whs)
	archived := map[string]bool{}
	for _, wh := range whs {
		archived[wh.UUID] = wh.Archived
	}
	var recs []struct {
		Warehouse string `json:"warehouse_uuid"`
		Available int64  `json:"available"`
	}
	w.must(http.MethodGet, "/inventory?sku="+url.QueryEscape(sku), nil).JSON(w.T, &recs)
	var a int64
	for _, r := range recs {
		if !archived[r.Warehouse] {
			a += r.Available
		}
	}
	return a
}

// waitSynced waits (bounded) until every listing of the account is synced
// with the quantity want gives it, the connector sim's channel shows that
// quantity, and channel_quantity equals it.
func (w *world) waitSynced(want map[string]int64) {
	w.T.Helper()
	var last []listings.Listing
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		w.Env.Drain(w.T)
		last = w.listings("")
		if w.synced(last, want) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	w.T.Fatalf("listings not synced to %v: %+v", want, render(last))
}

func (w *world) synced(ls []listings.Listing, want map[string]int64) bool {
	if len(ls) != len(want) {
		return false
	}
	for _, l := range ls {
		q, ok := want[l.ChannelSKU]
		if !ok || l.SyncStatus != listings.StatusSynced || l.Quantity == nil || *l.Quantity != q ||
			l.ChannelQuantity == nil || *l.ChannelQuantity != q {
			return false
		}
		shown, ok := w.Env.SimQuantity(w.Acct.ID, l.ChannelUUID, l.ChannelSKU)
		if !ok || shown != q {
			return false
		}
	}
	return true
}

func render(ls []listings.Listing) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = fmt.Sprintf("%s %s q=%v cq=%v", l.ChannelSKU, l.SyncStatus, deref(l.Quantity), deref(l.ChannelQuantity))
	}
	return out
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// wanted is what the formula gives the world's two listings for available
// stock a.
func wanted(a int64) map[string]int64 {
	return map[string]int64{"P": a, "EB-P": min(a*50/100, 6)}
}

// TestSyncFollowsStock: every change of P's available stock ends with each
// listing's quantity equal to the formula, pushed and confirmed by the
// connector sim.
func TestSyncFollowsStock(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(w *world)
		want   int64 // P available after the change
	}{
		{"adjustment", func(w *world) { w.Adjust("P", w.A, 3) }, 8},
		{"order import", func(w *world) {
			w.ImportOne(w.Doc("O-1", "2024-01-01", orderstest.Line("1", "P", 4)))
		}, 11},
		{"cancellation", func(w *world) {
			doc := w.Doc("O-2", "2024-01-01", orderstest.Line("1", "P", 4))
			w.ImportOne(doc)
			doc["cancelled_at"] = "2024-01-02T00:00:00Z"
			w.ImportOne(doc)
		}, 15},
		{"shipment", func(w *world) {
			seq := w.ImportOne(w.Doc("O-3", "2024-01-01", orderstest.Line("1", "P", 2)))
			if r := w.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1Z",
				"items": []any{map[string]any{"sku": "P", "quantity": 2}}}); r.Status != http.StatusOK {
				w.T.Fatalf("ship: %d %s", r.Status, r)
			}
		}, 13},
		{"warehouse archive", func(w *world) {
			w.must(http.MethodPut, "/warehouses/"+w.B, map[string]any{"warehouse": map[string]any{"archived": true}})
		}, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.waitSynced(wanted(15))
			tc.change(w)
			w.Env.Drain(t)
			if got := w.available(); got != tc.want {
				t.Fatalf("available after the change = %d, want %d", got, tc.want)
			}
			w.waitSynced(wanted(tc.want))
		})
	}
}

// TestRulesAndLinks: rule changes, overrides, unlinking and an inactive
// channel move listings to the right state.
func TestRulesAndLinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.waitSynced(wanted(15))

	// A listing override of one field keeps the channel's others: max 2 with percent 50.
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.EBay, "channel_sku": "EB-P", "inventory_rules": map[string]any{"max": 2}}})
	w.waitSynced(map[string]int64{"P": 15, "EB-P": 2})

	// The channel's rules replaced whole: safety 20 makes every listing of it 0.
	w.must(http.MethodPut, "/channels/"+w.Amazon, map[string]any{"channel": map[string]any{"inventory_rules": map[string]any{"safety": 20}}})
	w.waitSynced(map[string]int64{"P": 0, "EB-P": 2})

	// A warehouse subset on the listing.
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": "P", "inventory_rules": map[string]any{"safety": nil, "warehouses": []string{w.B}}}})
	w.waitSynced(map[string]int64{"P": 5, "EB-P": 2})

	// sync off: the listing goes off with no quantity; unlinking: unlinked.
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.EBay, "channel_sku": "EB-P", "inventory_rules": map[string]any{"sync": false}}})
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": "P", "sku": nil}})
	testenv.WaitFor(t, func() bool {
		w.Env.Drain(t)
		ls := w.listings("")
		return len(ls) == 2 && ls[0].SyncStatus == listings.StatusUnlinked && ls[0].Quantity == nil && ls[0].SKU == nil &&
			ls[1].SyncStatus == listings.StatusOff && ls[1].Quantity == nil
	}, "amazon unlinked, eBay off")
	if got := w.listings("sync_status=off"); len(got) != 1 || got[0].ChannelSKU != "EB-P" {
		t.Errorf("sync_status=off = %v", render(got))
	}
	if got := w.listings("sku=P"); len(got) != 1 || got[0].ChannelSKU != "EB-P" {
		t.Errorf("sku=P = %v", render(got))
	}

	// A channel that is not active: its listings are off.
	inactive, err := w.Env.Deps.Channels().Create(context.Background(), w.Acct.ID, channels.Input{Name: "Etsy", Type: "Etsy", State: channels.StateInactive})
	if err != nil {
		t.Fatal(err)
	}
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": inactive.UUID, "channel_sku": "P"}})
	testenv.WaitFor(t, func() bool {
		w.Env.Drain(t)
		ls := w.listings("channel_uuid=" + inactive.UUID)
		return len(ls) == 1 && ls[0].SyncStatus == listings.StatusOff && ls[0].SKU != nil && *ls[0].SKU == "P"
	}, "the inactive channel's listing off")

	// A listing linking by equal SKU follows its product: created later, it links
	// (under the channel's rules reset to the defaults).
	w.must(http.MethodPut, "/channels/"+w.Amazon, map[string]any{"channel": map[string]any{"inventory_rules": map[string]any{}}})
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": "LATER"}})
	if got := w.listings("channel_uuid=" + w.Amazon); got[0].ChannelSKU != "LATER" && got[1].ChannelSKU != "LATER" {
		t.Fatalf("LATER missing: %v", render(got))
	}
	w.Product("LATER")
	w.Stock("LATER", w.A, 4)
	testenv.WaitFor(t, func() bool {
		w.Env.Drain(t)
		for _, l := range w.listings("channel_uuid=" + w.Amazon) {
			if l.ChannelSKU == "LATER" {
				return l.SKU != nil && l.SyncStatus == listings.StatusSynced && l.Quantity != nil && *l.Quantity == 4
			}
		}
		return false
	}, "LATER linked by its new product and synced to 4")

	// DELETE removes it; a second DELETE is 404.
	path := "/listings?channel_uuid=" + w.Amazon + "&channel_sku=LATER"
	w.must(http.MethodDelete, path, nil)
	if r := w.C.Do(http.MethodDelete, path, nil); r.Status != http.StatusNotFound {
		t.Errorf("second delete: %d %s", r.Status, r)
	}
}

// TestProductQuantity: a product's quantity is its available stock at
// warehouses that are not archived, a group's the sum of its children's;
// a written quantity changes nothing.
func TestProductQuantity(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, sku := range []string{"C1", "C2"} {
		w.C.Do(http.MethodPut, "/products/"+sku, map[string]any{"name": sku, "custom_attributes": map[string]any{"color": sku}})
	}
	w.must(http.MethodPut, "/variation_groups/G", map[string]any{"name": "G", "child_skus": []string{"C1", "C2"}, "variation_attributes": []string{"color"}})
	w.Stock("C1", w.A, 3)
	w.Stock("C2", w.B, 4)
	quantity := func(sku string) int64 {
		var p struct {
			Quantity *int64 `json:"quantity"`
		}
		w.must(http.MethodGet, "/products/"+url.PathEscape(sku), nil).JSON(t, &p)
		if p.Quantity == nil {
			t.Fatalf("%s: quantity null", sku)
		}
		return *p.Quantity
	}
	expect := func(step string, want map[string]int64) {
		t.Helper()
		testenv.WaitFor(t, func() bool {
			w.Env.Drain(t)
			for sku, q := range want {
				if quantity(sku) != q {
					return false
				}
			}
			return true
		}, step+fmt.Sprint(want))
	}
	expect("stock", map[string]int64{"P": 15, "C1": 3, "C2": 4, "G": 7})
	w.Adjust("C1", w.A, 1)
	expect("adjustment", map[string]int64{"C1": 1, "G": 5})
	w.ImportOne(w.Doc("O-1", "2024-01-01", orderstest.Line("1", "C2", 3), orderstest.Line("2", "P", 2)))
	expect("reservation", map[string]int64{"P": 13, "C2": 1, "G": 2})
	if got := w.availableOf("P"); got != 13 {
		t.Fatalf("P available %d after reserving 2 of 15", got)
	}
	w.must(http.MethodPut, "/warehouses/"+w.B, map[string]any{"warehouse": map[string]any{"archived": true}})
	w.Env.Drain(t)
	p, c1, c2 := w.availableOf("P"), w.availableOf("C1"), w.availableOf("C2")
	if c2 != 0 {
		t.Errorf("C2 is stocked only at the archived warehouse, yet available %d", c2)
	}
	expect("archive", map[string]int64{"P": p, "C1": c1, "C2": c2, "G": c1 + c2})
	w.must(http.MethodPut, "/products/P", map[string]any{"quantity": 999})
	w.must(http.MethodPatch, "/products/G", map[string]any{"quantity": "abc"})
	expect("written quantity ignored", map[string]int64{"P": p, "G": c1 + c2})
	w.Product("NO-STOCK")
	if got := quantity("NO-STOCK"); got != 0 {
		t.Errorf("a product without stock: quantity %d, want 0", got)
	}
}

// TestOrdersFollowLinks: an imported order line draws what the listing of
// its channel SKU says: an explicit link's product, none for a listing
// unlinked explicitly (even when a product has the channel SKU), else the
// product with the channel SKU.
func TestOrdersFollowLinks(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.Product("Q")
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": "Q", "sku": nil}})
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": "AMZ-X", "sku": "P"}})
	seq := w.ImportOne(w.Doc("O-L", "2024-01-01", orderstest.Line("1", "Q", 1), orderstest.Line("2", "AMZ-X", 1), orderstest.Line("3", "P", 1)))
	o := w.Order(seq)
	got := make([]any, len(o.Items))
	for i, it := range o.Items {
		got[i] = nil
		if it.InventorySKU != nil {
			got[i] = *it.InventorySKU
		}
	}
	if want := []any{nil, "P", "P"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("inventory_sku of the lines = %v, want %v", got, want)
	}
}
