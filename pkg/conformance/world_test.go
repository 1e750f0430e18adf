package conformance_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
)

// world is a fresh account holding one of everything: a warehouse, a stand-alone
// product, a variation group with one child, inventory records, a channel with its own
// inventory rules, a listing on it (its channel SKU the product's SKU, linked explicitly
// to the product), an open order partly shipped, a cancelled order and an applied
// inventory adjustment.
type world struct {
	ids
	env       *testenv.Env
	acct      testenv.Account
	c         *caller
	Cancelled int64 // a cancelled order
}

// Times sent in the world's import documents, with what the API must return for them.
const (
	orderedAtIn      = "2024-03-01T10:15:30.5+02:00"
	orderedAtOut     = "2024-03-01T08:15:30Z"
	paidAtIn         = "2024-03-01" // a date alone is midnight UTC
	paidAtOut        = "2024-03-01T00:00:00Z"
	shipByIn         = "2024-03-04T23:00:00-01:00"
	shipByOut        = "2024-03-05T00:00:00Z"
	cancelledAtIn    = "2024-03-02T12:00:00.999-07:00"
	cancelledAtOut   = "2024-03-02T19:00:00Z"
	cancelledOrdered = "2024-03-02T09:00:00Z"
)

func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldWith(t, "conf-widget", "conf-shirt-red", "conf-shirt")
}

// newWorldWith is newWorld with the given SKUs of the stand-alone product, the child
// and the variation group.
func newWorldWith(t *testing.T, product, child, group string) *world {
	t.Helper()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := newCaller(t, env, acct)
	w := &world{env: env, acct: acct, c: c}

	var wh struct {
		UUID string `json:"warehouse_uuid"`
	}
	c.must(http.StatusOK, http.MethodPost, "/warehouses", map[string]any{"warehouse": map[string]any{
		"name": "Main", "city": "Oakland", "country_code": "US", "email": "ops@example.com"}}, &wh)
	w.Warehouse = wh.UUID

	w.Product, w.Child, w.Group = product, child, group
	c.must(http.StatusOK, http.MethodPut, "/products/"+url.PathEscape(w.Product),
		map[string]any{"name": "Widget", "price": 9.5, "brand": "Acme", "features": []string{"sturdy"}}, nil)
	c.must(http.StatusOK, http.MethodPut, "/products/"+url.PathEscape(w.Child),
		map[string]any{"name": "Shirt, red", "custom_attributes": map[string]any{"color": "red"}}, nil)
	c.must(http.StatusOK, http.MethodPut, "/variation_groups/"+url.PathEscape(w.Group), map[string]any{
		"name": "Shirt", "child_skus": []string{w.Child}, "variation_attributes": []string{"color"}}, nil)
	c.must(http.StatusCreated, http.MethodPost, "/inventory", map[string]any{"inventory": []any{
		map[string]any{"sku": w.Product, "warehouse_uuid": w.Warehouse, "on_hand": 10, "bin_location": "A-1"},
		map[string]any{"sku": w.Child, "warehouse_uuid": w.Warehouse, "on_hand": 5},
	}}, nil)

	ch, err := env.Deps.Channels().Create(context.Background(), acct.ID, channels.Input{
		Name: "Amazon US", Type: "Amazon", SiteID: "ATVPDKIKX0DER", Region: "US"})
	if err != nil {
		t.Fatalf("create channel: %v", err)
	}
	w.Channel = ch.UUID
	c.must(http.StatusOK, http.MethodPut, "/channels/"+w.Channel, map[string]any{"channel": map[string]any{
		"inventory_rules": map[string]any{"percent": 90, "safety": 1, "warehouses": []string{w.Warehouse}}}}, nil)
	w.Listing = w.Product
	var l struct {
		ChannelSKU string  `json:"channel_sku"`
		SKU        *string `json:"sku"`
	}
	c.must(http.StatusOK, http.MethodPut, "/listings", map[string]any{"listing": map[string]any{
		"channel_uuid": w.Channel, "channel_sku": w.Listing, "sku": w.Product, "listing_ref": "CONF-LISTING-1",
		"inventory_rules": map[string]any{"max": 5}}}, &l)
	if l.ChannelSKU != w.Listing || l.SKU == nil || *l.SKU != w.Product {
		t.Fatalf("PUT /listings: channel SKU %q linked to %v, want %q linked to %q", short(l.ChannelSKU), l.SKU, short(w.Listing), short(w.Product))
	}
	seqs := importOrders(t, env, acct.ID,
		map[string]any{"channel_uuid": w.Channel, "display_ref": "CONF-1", "ordered_at": orderedAtIn,
			"paid_at": paidAtIn, "ship_by_date": shipByIn, "deliver_by_date": "2024-03-08",
			"shipping_contact_name": "Ada Lovelace", "shipping_country_code": "US",
			"items": []any{map[string]any{"order_item_ref": "1", "sku": w.Product, "quantity": 3, "unit_price": 9.5}}},
		map[string]any{"channel_uuid": w.Channel, "display_ref": "CONF-2", "ordered_at": cancelledOrdered,
			"cancelled_at": cancelledAtIn,
			"items":        []any{map[string]any{"order_item_ref": "1", "sku": w.Child, "quantity": 1}}})
	w.Seq, w.Cancelled = seqs[0], seqs[1]

	c.must(http.StatusOK, http.MethodPost, "/shipments", map[string]any{"shipment": map[string]any{
		"sb_order_seq": w.Seq, "carrier_name": "UPS", "tracking_number": "1Z999AA10123456784",
		"items": []any{map[string]any{"sku": w.Product, "quantity": 1}}}}, nil)

	var adj struct {
		RequestID string `json:"request_id"`
	}
	c.must(http.StatusOK, http.MethodPut, "/inventory", map[string]any{"inventory": []any{map[string]any{
		"sku": w.Child, "warehouse_uuid": w.Warehouse, "on_hand": 6, "description": "recount"}}}, &adj)
	w.RequestID = adj.RequestID
	// The product's history: a unit returned and counted away again (on_hand stays 10).
	for _, d := range []int{1, -1} {
		c.must(http.StatusOK, http.MethodPatch, "/inventory", map[string]any{"inventory": []any{map[string]any{
			"sku": w.Product, "warehouse_uuid": w.Warehouse, "on_hand_delta": d, "reason": "counted", "reference": "CC-1"}}}, nil)
	}

	w.Webhook, w.Delivery = addWebhook(t, c)
	env.Drain(t)
	settled(t, c)
	return w
}

// addWebhook gives the account a webhook to the package's receiver
// (hookURL) and pings it; it returns the webhook's id and the ping's
// delivery id. settled waits for the delivery to end, so snapshots do not
// move under the tests.
func addWebhook(t *testing.T, c *caller) (webhook, delivery string) {
	t.Helper()
	var hook struct {
		Webhook struct {
			ID string `json:"id"`
		} `json:"webhook"`
	}
	c.must(http.StatusCreated, http.MethodPost, "/webhooks", map[string]any{"webhook": map[string]any{
		"url": hookURL(), "events": []string{"listing.sync_failed"}, "description": "Conformance"}}, &hook)
	var ping struct {
		Delivery struct {
			ID string `json:"id"`
		} `json:"delivery"`
	}
	c.must(http.StatusAccepted, http.MethodPost, "/webhooks/"+hook.Webhook.ID+"/ping", nil, &ping)
	return hook.Webhook.ID, ping.Delivery.ID
}

// settled waits until the account's channel sync is done: it settles asynchronously (the
// connector sim answers the outbox), so until no listing or shipment is pending, snapshots
// of a world could move under the tests.
func settled(t *testing.T, c *caller) {
	t.Helper()
	testenv.WaitFor(t, func() bool {
		for _, path := range []string{"/listings?sync_status=pending", "/shipments?sync_status=pending"} {
			if r := c.must(http.StatusOK, http.MethodGet, path, nil, nil); r.String() != "[]" {
				return false
			}
		}
		var hooks struct {
			Webhooks []struct {
				ID string `json:"id"`
			} `json:"webhooks"`
		}
		c.must(http.StatusOK, http.MethodGet, "/webhooks", nil, &hooks)
		for _, h := range hooks.Webhooks {
			if r := c.must(http.StatusOK, http.MethodGet, "/webhooks/"+h.ID+"/deliveries", nil, nil); strings.Contains(r.String(), `"status":"pending"`) {
				return false
			}
		}
		return true
	}, "channel sync to settle")
}

// importOrders imports documents into the account as the CLI does and returns their
// sequence numbers; every document must import.
func importOrders(t testing.TB, env *testenv.Env, account string, docs ...any) []int64 {
	t.Helper()
	res := importResults(t, env, account, docs...)
	out := make([]int64, len(res))
	for i, r := range res {
		if r.Result == orders.ResultError || r.Seq == nil {
			t.Fatalf("import document %d: %+v", i, r)
		}
		out[i] = *r.Seq
	}
	return out
}

func importResults(t testing.TB, env *testenv.Env, account string, docs ...any) []orders.Result {
	t.Helper()
	raws := make([]json.RawMessage, len(docs))
	for i, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		raws[i] = b
	}
	res, err := env.Deps.Orders().Import(context.Background(), account, raws)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	if len(res) != len(docs) {
		t.Fatalf("import: %d results for %d documents", len(res), len(docs))
	}
	return res
}

// snapshot GETs every GET route of rts with x's resources, plus each product of x, the
// listings of x's channel and of x's product, and the extra paths, and returns status,
// Total-Pages and body by path.
func snapshot(c *caller, rts []route, x ids, extra ...string) map[string]string {
	c.t.Helper()
	paths := append([]string(nil), extra...)
	for _, rt := range rts {
		if rt.Method == http.MethodGet {
			paths = append(paths, x.path(c.t, rt))
		}
	}
	for _, sku := range []string{x.Product, x.Child, x.Group} {
		paths = append(paths, "/products/"+url.PathEscape(sku))
	}
	paths = append(paths, "/listings?channel_uuid="+url.QueryEscape(x.Channel), "/listings?sku="+url.QueryEscape(x.Product))
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		r := c.do(http.MethodGet, p, nil)
		out[p] = fmt.Sprintf("%d Total-Pages=%q %s", r.Status, r.Header.Get("Total-Pages"), r.Body)
	}
	return out
}

// snapshot is snapshot of the world's resources, the cancelled order included.
func (w *world) snapshot(c *caller, rts []route) map[string]string {
	c.t.Helper()
	return snapshot(c, rts, w.ids, fmt.Sprintf("/orders/%d", w.Cancelled))
}

// sameSnapshot fails the test for each path whose answer changed.
func sameSnapshot(t testing.TB, what string, before, after map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(before))
	for k := range before {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if before[k] != after[k] {
			t.Errorf("%s: GET %s changed:\nbefore: %s\nafter:  %s", what, k, short(before[k]), short(after[k]))
		}
	}
}
