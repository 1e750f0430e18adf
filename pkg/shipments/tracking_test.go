package shipments_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/local/connectorsim"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
	"github.com/multisell/multisell/pkg/wire"
)

// tracked is a fixture with helpers for shipments' tracking.
type tracked struct {
	*orderstest.Fixture
	wh string
}

func newTracked(t testing.TB) *tracked {
	t.Helper()
	f := orderstest.New(t)
	tr := &tracked{Fixture: f, wh: f.Warehouse("A")}
	f.Product("S")
	f.Product("T")
	f.Stock("S", tr.wh, 100)
	f.Stock("T", tr.wh, 100)
	return tr
}

// channel creates a channel of the type and returns its uuid.
func (tr *tracked) channel(typ string) string {
	tr.T.Helper()
	ch, err := tr.Env.Deps.Channels().Create(context.Background(), tr.Acct.ID, channels.Input{Name: typ + " store", Type: typ})
	if err != nil {
		tr.T.Fatal(err)
	}
	return ch.UUID
}

// order imports an order of the channel with lines 1 (S, 3 units) and 2
// (T, 2 units) and returns its seq.
func (tr *tracked) order(channel, ref string) int64 {
	tr.T.Helper()
	doc := tr.Doc(ref, "2024-01-02", orderstest.Line("L1", "S", 3), orderstest.Line("L2", "T", 2))
	doc["channel_uuid"] = channel
	return tr.ImportOne(doc)
}

// ship posts a shipment that must succeed and returns its id.
func (tr *tracked) ship(body map[string]any) string {
	tr.T.Helper()
	r := tr.Ship(body)
	if r.Status != http.StatusOK {
		tr.T.Fatalf("ship %v: %d %s", body, r.Status, r)
	}
	var out struct {
		ID string `json:"shipment_id"`
	}
	r.JSON(tr.T, &out)
	return out.ID
}

// list is GET /shipments?query.
func (tr *tracked) list(query string) []shipments.View {
	tr.T.Helper()
	r := tr.C.Do(http.MethodGet, "/shipments?"+query, nil)
	if r.Status != http.StatusOK {
		tr.T.Fatalf("GET /shipments?%s: %d %s", query, r.Status, r)
	}
	var out []shipments.View
	r.JSON(tr.T, &out)
	return out
}

// waitStatus waits until GET /shipments shows the shipment with the sync
// status and returns it.
func (tr *tracked) waitStatus(seq int64, id, status string) shipments.View {
	tr.T.Helper()
	var got shipments.View
	testenv.WaitFor(tr.T, func() bool {
		for _, v := range tr.list(fmt.Sprintf("sb_order_seq=%d", seq)) {
			if v.ID == id && v.SyncStatus == status {
				got = v
				return true
			}
		}
		return false
	}, fmt.Sprintf("shipment %s %s", id, status))
	return got
}

func item(sku string, q int) map[string]any { return map[string]any{"sku": sku, "quantity": q} }

// TestTrackingPerChannelType: a shipment of an order of each channel type
// posts its tracking once, with the carrier and method that channel's rules
// say, and shows synced.
func TestTrackingPerChannelType(t *testing.T) {
	t.Parallel()
	tr := newTracked(t)
	link := "https://track.example/1"
	tests := []struct {
		typ, carrier    string
		method, urlSent string
		wantCarrier     string
		wantMethod      string
	}{
		{typ: "Amazon", carrier: "Bob's Couriers", method: "Truck", wantCarrier: "Other"},
		{typ: "eBay", carrier: "Bob's Couriers", wantCarrier: "Other"},
		{typ: "Walmart", carrier: "u.s.p.s", method: "priority mail", wantCarrier: "USPS", wantMethod: "Priority Mail"},
		{typ: "Etsy", carrier: "TNT", wantCarrier: "Other"},
		{typ: "Shopify", carrier: "Bob's Couriers", urlSent: link, wantCarrier: "Other"},
		{typ: "Newegg", carrier: "fed ex", method: "Ground", wantCarrier: "FedEx"},
		{typ: "Target", carrier: "AMZL", wantCarrier: "Amazon Logistics"},
		{typ: "Google", carrier: "colissimo", wantCarrier: "La Poste"},
		{typ: "Faire", carrier: "OnTrac", urlSent: link, wantCarrier: "Other"},
		{typ: "Bol.com", carrier: "Bob's Couriers", wantCarrier: "Bob's Couriers"},
	}
	type posted struct {
		channel, id string
		seq         int64
	}
	var done []posted
	for i, tt := range tests {
		ch := tr.channel(tt.typ)
		seq := tr.order(ch, "R-"+tt.typ)
		body := map[string]any{"sb_order_seq": seq, "carrier_name": tt.carrier, "tracking_number": fmt.Sprint("TN-", i),
			"items": []any{item("S", 3)}}
		if tt.method != "" {
			body["shipping_method"] = tt.method
		}
		if tt.urlSent != "" {
			body["tracking_url"] = tt.urlSent
		}
		done = append(done, posted{ch, tr.ship(body), seq})
	}
	for i, tt := range tests {
		p := done[i]
		tr.waitStatus(p.seq, p.id, shipments.StatusSynced)
		all := tr.Env.SimShipments(tr.Acct.ID, p.channel)
		got, ok := all[p.id]
		if !ok || len(all) != 1 {
			t.Errorf("%s: the channel shows %d shipments, want this one", tt.typ, len(all))
			continue
		}
		want := connectorsim.Shipment{DisplayRef: "R-" + tt.typ, CarrierName: tt.wantCarrier, CarrierNameGiven: tt.carrier,
			TrackingNumber: fmt.Sprint("TN-", i), TrackingURL: tt.urlSent, ShippingMethod: tt.wantMethod,
			Items: []wire.TrackingItem{{OrderItemRef: "L1", SKU: "S", Quantity: 3}}, ShippedAt: got.ShippedAt, PostedAt: got.PostedAt}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: posted %+v\nwant %+v", tt.typ, got, want)
		}
		if got.ShippedAt == "" {
			t.Errorf("%s: no shipped_at", tt.typ)
		}
	}
}

// TestTrackingRetried: a post the channel refuses shows failed with the
// channel's error, then the retry succeeds and it shows synced.
func TestTrackingRetried(t *testing.T) {
	t.Parallel()
	tr := newTracked(t)
	seq := tr.order(tr.Channel, "R-RETRY")
	tr.Env.RefusePushes(t, tr.Acct.ID)
	id := tr.ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1Z", "items": []any{item("S", 1)}})
	failed := tr.waitStatus(seq, id, shipments.StatusFailed)
	if failed.SyncError == nil || *failed.SyncError != connectorsim.SimulatedError {
		t.Errorf("failed shipment's sync_error = %v, want %q", failed.SyncError, connectorsim.SimulatedError)
	}
	if l := tr.list("sync_status=failed"); len(l) != 1 || l[0].ID != id {
		t.Errorf("GET /shipments?sync_status=failed = %+v", l)
	}
	tr.Env.AcceptPushes(tr.Acct.ID)
	synced := tr.waitStatus(seq, id, shipments.StatusSynced)
	if synced.SyncError != nil {
		t.Errorf("synced shipment keeps sync_error %q", *synced.SyncError)
	}
	if _, ok := tr.Env.SimShipment(tr.Acct.ID, tr.Channel, id); !ok {
		t.Error("the channel does not show the retried tracking")
	}
	if l := tr.list("sync_status=FAILED"); len(l) != 0 {
		t.Errorf("still failed: %+v", l)
	}
}

// TestPartialShipmentsAndReplays: each shipment of an order posts only what
// it carries; two shipments post two messages; a replayed stream record of
// a shipment posts nothing twice.
func TestPartialShipmentsAndReplays(t *testing.T) {
	t.Parallel()
	tr := newTracked(t)
	seq := tr.order(tr.Channel, "R-PART")
	first := tr.ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "P1", "items": []any{item("S", 1)}})
	second := tr.ship(map[string]any{"sb_order_seq": seq, "carrier_name": "USPS", "tracking_number": "P2",
		"warehouse_uuid": tr.wh, "items": []any{item("S", 2), item("T", 2)}})
	tr.waitStatus(seq, first, shipments.StatusSynced)
	tr.waitStatus(seq, second, shipments.StatusSynced)
	posted := tr.Env.SimShipments(tr.Acct.ID, tr.Channel)
	if len(posted) != 2 {
		t.Fatalf("the channel shows %d shipments, want 2", len(posted))
	}
	if got, want := posted[first].Items, []wire.TrackingItem{{OrderItemRef: "L1", SKU: "S", Quantity: 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("first shipment's items = %+v, want %+v", got, want)
	}
	if got, want := posted[second].Items, []wire.TrackingItem{{OrderItemRef: "L1", SKU: "S", Quantity: 2}, {OrderItemRef: "L2", SKU: "T", Quantity: 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("second shipment's items = %+v, want %+v", got, want)
	}
	list := tr.list(fmt.Sprintf("sb_order_seq=%d", seq))
	if len(list) != 2 || list[0].ID != first || list[1].ID != second {
		t.Fatalf("GET /shipments?sb_order_seq = %+v, want the two, oldest first", list)
	}
	if got, want := list[1].Items, []shipments.ViewItem{{SKU: "S", Quantity: 2}, {SKU: "T", Quantity: 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("listed items = %+v, want %+v", got, want)
	}
	if list[1].WarehouseUUID == nil || *list[1].WarehouseUUID != tr.wh || list[1].CarrierName != "USPS" || list[1].TrackingNumber != "P2" {
		t.Errorf("listed %+v", list[1])
	}
	if page := tr.list(fmt.Sprintf("sb_order_seq=%d&limit=1&page=2", seq)); len(page) != 1 || page[0].ID != second {
		t.Errorf("page 2 of 1 = %+v", page)
	}

	// Replay the first shipment's INSERT record, and its record as synced,
	// through channel sync: nothing is posted again.
	img, err := tr.Env.Deps.Table.Item(context.Background(), store.Key(store.PK(tr.Acct.ID, "SHP"), first), true)
	if err != nil || !img.Exists() {
		t.Fatalf("read the shipment: %v", err)
	}
	listed := tr.list("")
	for range 3 {
		failed := tr.Env.Deps.Listings().Sync(context.Background(), []store.Change{
			{Seq: "1", Account: tr.Acct.ID, Kind: "SHP", SK: first, New: img},
			{Seq: "2", Account: tr.Acct.ID, Kind: "SHP", SK: first, Old: img, New: img},
		})
		if failed != "" {
			t.Fatalf("replay failed from %q", failed)
		}
	}
	tr.Env.Drain(t)
	time.Sleep(500 * time.Millisecond) // give a (wrong) message time to reach the sim
	if again := tr.Env.SimShipments(tr.Acct.ID, tr.Channel); !reflect.DeepEqual(again, posted) {
		t.Errorf("replays posted tracking again: %+v -> %+v", posted, again)
	}
	if again := tr.list(""); !reflect.DeepEqual(again, listed) {
		t.Errorf("replays changed the shipments: %+v -> %+v", listed, again)
	}
}

// TestTrackingBadInput: the channel rules' 422s, which change nothing, and
// filters of the wrong type.
func TestTrackingBadInput(t *testing.T) {
	t.Parallel()
	tr := newTracked(t)
	walmart, shopify := tr.channel("Walmart"), tr.channel("shopify")
	wseq, sseq := tr.order(walmart, "W-1"), tr.order(shopify, "S-1")
	ship := func(seq int64, extra map[string]any) map[string]any {
		b := map[string]any{"sb_order_seq": seq, "carrier_name": "USPS", "tracking_number": "1", "items": []any{item("S", 1)}}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	tests := []struct {
		name string
		body map[string]any
		msg  string
	}{
		{"walmart without method", ship(wseq, nil), "shipping_method must be one of Priority Mail, Priority Mail Express"},
		{"walmart blank method", ship(wseq, map[string]any{"shipping_method": " "}), "shipping_method must be one of Priority Mail"},
		{"walmart another carrier's method", ship(wseq, map[string]any{"carrier_name": "FedEx", "shipping_method": "Priority Mail"}), "shipping_method must be one of Ground, Home Delivery"},
		{"walmart unknown carrier without url", ship(wseq, map[string]any{"carrier_name": "Bob's", "shipping_method": "Truck"}), "tracking_url"},
		{"shopify unknown carrier without url", ship(sseq, map[string]any{"carrier_name": "Bob's"}), "tracking_url"},
		{"shopify other without url", ship(sseq, map[string]any{"carrier_name": "other"}), "tracking_url"},
	}
	for _, tt := range tests {
		r := tr.Ship(tt.body)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), tt.msg) {
			t.Errorf("%s: %d %s, want 422 with %q", tt.name, r.Status, r, tt.msg)
		}
	}
	if o := tr.Order(wseq); o.Items[0].QuantityFulfilled != 0 {
		t.Errorf("a refused shipment shipped: %+v", o.Items[0])
	}
	if l := tr.list(""); len(l) != 0 {
		t.Errorf("refused shipments are listed: %+v", l)
	}
	// The same with what the channel needs.
	tr.ship(ship(wseq, map[string]any{"shipping_method": "ground advantage"}))
	tr.ship(ship(wseq, map[string]any{"carrier_name": "Bob's", "shipping_method": "Truck", "tracking_url": "https://t.example/1"}))
	tr.ship(ship(sseq, map[string]any{"carrier_name": "Bob's", "tracking_url": "https://t.example/2"}))
	if l := tr.list(fmt.Sprintf("sb_order_seq=%d", wseq)); len(l) != 2 || l[0].ShippingMethod == nil || *l[0].ShippingMethod != "Ground Advantage" {
		t.Errorf("Walmart shipments = %+v, want the method in the carrier's spelling", l)
	}
	for _, q := range []string{"sb_order_seq=abc", "sb_order_seq=0", "sb_order_seq=-1", "sb_order_seq=1.5", "sb_order_seq=" + url.QueryEscape("1 2"),
		"sync_status=bogus", "sync_status=unlinked", "sync_status=1"} {
		r := tr.C.Do(http.MethodGet, "/shipments?"+q, nil)
		name := strings.SplitN(q, "=", 2)[0]
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), name) {
			t.Errorf("GET /shipments?%s: %d %s, want 422 naming %s", q, r.Status, r, name)
		}
	}
	tr.Env.Drain(t)
}

// TestShipmentsIsolation: another account's shipments are never listed nor
// matched by sb_order_seq, and its results cannot touch them.
func TestShipmentsIsolation(t *testing.T) {
	t.Parallel()
	a, b := newTracked(t), newTracked(t)
	aseq := a.order(a.Channel, "A-1")
	bseq := b.order(b.Channel, "B-1")
	aid := a.ship(map[string]any{"sb_order_seq": aseq, "carrier_name": "UPS", "tracking_number": "A", "items": []any{item("S", 1)}})
	bid := b.ship(map[string]any{"sb_order_seq": bseq, "carrier_name": "UPS", "tracking_number": "B", "items": []any{item("S", 1)}})
	a.waitStatus(aseq, aid, shipments.StatusSynced)
	b.waitStatus(bseq, bid, shipments.StatusSynced)
	for _, q := range []string{"", fmt.Sprintf("sb_order_seq=%d", aseq), fmt.Sprintf("sb_order_seq=%d", bseq), "sync_status=synced"} {
		for _, v := range b.list(q) {
			if v.ID != bid {
				t.Errorf("B's GET /shipments?%s lists %s", q, v.ID)
			}
		}
	}
	if l := b.list(fmt.Sprintf("sb_order_seq=%d", aseq)); aseq != bseq && len(l) != 0 {
		t.Errorf("B lists A's order's shipments: %+v", l)
	}
	// B's connector answers for A's shipment: rejected, A's unchanged.
	err := b.Env.Deps.Listings().Tracking.(shipments.Service).Confirm(context.Background(), b.Acct.ID,
		shipments.Result{ChannelUUID: a.Channel, ShipmentID: aid, OK: false})
	if err != shipments.ErrNotFound {
		t.Errorf("B's result for A's shipment: %v, want not found", err)
	}
	if l := a.list(""); len(l) != 1 || l[0].SyncStatus != shipments.StatusSynced {
		t.Errorf("A's shipments: %+v", l)
	}
}

// TestCarriers: GET /carriers lists every preferred carrier by name with
// its aliases and methods, Other without methods, paginated.
func TestCarriers(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	r := f.C.Do(http.MethodGet, "/carriers", nil)
	var all []carriers.Carrier
	r.JSON(t, &all)
	if r.Status != http.StatusOK || len(all) != len(carriers.Preferred) || r.Header.Get("Total-Pages") != "1" {
		t.Fatalf("GET /carriers: %d, %d carriers, Total-Pages %q", r.Status, len(all), r.Header.Get("Total-Pages"))
	}
	byName := map[string]carriers.Carrier{}
	for i, c := range all {
		byName[c.Name] = c
		if i > 0 && strings.ToLower(all[i-1].Name) > strings.ToLower(c.Name) {
			t.Errorf("%s before %s", all[i-1].Name, c.Name)
		}
	}
	if usps := byName["USPS"]; !reflect.DeepEqual(usps.ShippingMethods[:2], []string{"Priority Mail", "Priority Mail Express"}) ||
		!strings.Contains(strings.Join(usps.Aliases, ","), "united states postal service") {
		t.Errorf("USPS = %+v", usps)
	}
	if other, ok := byName["Other"]; !ok || len(other.ShippingMethods) != 0 {
		t.Errorf("Other = %+v", other)
	}
	var page []carriers.Carrier
	r = f.C.Do(http.MethodGet, "/carriers?limit=10&page=3", nil)
	r.JSON(t, &page)
	if r.Status != http.StatusOK || len(page) != len(all)-20 || page[0].Name != all[20].Name || r.Header.Get("Total-Pages") != "3" {
		t.Errorf("page 3 of 10: %d %d carriers, Total-Pages %q", r.Status, len(page), r.Header.Get("Total-Pages"))
	}
	if r := f.C.Do(http.MethodGet, "/carriers?page=0", nil); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("page=0: %d", r.Status)
	}
}
