// Package orderstest is the test fixture of the orders domain, shared by the
// tests of pkg/orders and pkg/shipments: a fresh account with a channel,
// helpers for the other domains' setup, order imports and reads. Every
// fixture's account is checked against orders.CheckInvariants when its test
// ends.
package orderstest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
)

// Fixture is one fresh account with a client and helpers for the other
// domains' setup (called in-process, since their routes are not the orders
// domain's).
type Fixture struct {
	T    testing.TB
	Env  *testenv.Env
	Acct testenv.Account
	C    *testenv.Client
	Svc  orders.Service
	// Channel is the uuid of the account's channel, "Amazon US".
	Channel string
}

// New creates a fixture; the account's invariants are checked when the test
// ends.
func New(t testing.TB) *Fixture {
	t.Helper()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f := &Fixture{T: t, Env: env, Acct: acct, C: env.Client(t, acct), Svc: env.Deps.Orders()}
	ch, err := env.Deps.Channels().Create(context.Background(), acct.ID, channels.Input{Name: "Amazon US", Type: "Amazon"})
	if err != nil {
		t.Fatal(err)
	}
	f.Channel = ch.UUID
	t.Cleanup(func() {
		if err := env.Deps.Orders().CheckInvariants(context.Background(), acct.ID); err != nil {
			t.Errorf("invariants: %v", err)
		}
	})
	return f
}

// In returns the fixture for t, a subtest of the test that created it: the
// same account and channel, with failures reported to t.
func (f *Fixture) In(t testing.TB) *Fixture {
	t.Helper()
	g := *f
	g.T, g.C = t, f.Env.Client(t, f.Acct)
	return &g
}

// Warehouse creates a warehouse through the API and returns its uuid.
func (f *Fixture) Warehouse(name string) string {
	f.T.Helper()
	r := f.C.Do("POST", "/warehouses", map[string]any{"warehouse": map[string]any{"name": name}})
	if r.Status != http.StatusOK {
		f.T.Fatalf("create warehouse: %d %s", r.Status, r)
	}
	var out struct {
		UUID string `json:"warehouse_uuid"`
	}
	r.JSON(f.T, &out)
	return out.UUID
}

// Invoke runs another domain's endpoint in-process as the account.
func (f *Fixture) Invoke(function, method string, params map[string]string, body any) events.APIGatewayProxyResponse {
	f.T.Helper()
	h, err := f.Env.Handler(function)
	if err != nil {
		f.T.Fatal(err)
	}
	b, _ := json.Marshal(body)
	resp, err := h.(app.HTTPHandler)(context.Background(), events.APIGatewayProxyRequest{
		HTTPMethod: method, Body: string(b), PathParameters: params,
		RequestContext: events.APIGatewayProxyRequestContext{Authorizer: map[string]any{
			"account_id": f.Acct.ID, "rps": testenv.Unthrottled, "rpm": testenv.Unthrottled}},
	})
	if err != nil || resp.StatusCode >= 300 {
		f.T.Fatalf("%s: %d %s %v", function, resp.StatusCode, resp.Body, err)
	}
	return resp
}

// Product creates a product of the catalog.
func (f *Fixture) Product(sku string) {
	f.T.Helper()
	f.Invoke("products-upsert", "POST", map[string]string{"sku": sku}, map[string]any{"name": "Product " + sku})
}

// Link links the fixture channel's SKU to a product explicitly (PUT
// /listings).
func (f *Fixture) Link(channelSKU, product string) {
	f.T.Helper()
	f.Invoke("listings-put", "PUT", nil, map[string]any{"listing": map[string]any{
		"channel_uuid": f.Channel, "channel_sku": channelSKU, "sku": product}})
}

// Stock creates the inventory record (sku, wh) with on_hand (POST /inventory).
func (f *Fixture) Stock(sku, wh string, onHand int) {
	f.T.Helper()
	f.Invoke("inventory-create", "POST", nil, map[string]any{"inventory": []any{
		map[string]any{"sku": sku, "warehouse_uuid": wh, "on_hand": onHand}}})
}

// Adjust sets on_hand of (sku, wh) through PUT /inventory and waits until the
// queued adjustment (and its stock listener) has run.
func (f *Fixture) Adjust(sku, wh string, onHand int) {
	f.T.Helper()
	f.Invoke("inventory-adjust", "PUT", nil, map[string]any{"inventory": []any{
		map[string]any{"sku": sku, "warehouse_uuid": wh, "on_hand": onHand}}})
	f.Env.Drain(f.T)
}

// Record reads an inventory record.
func (f *Fixture) Record(sku, wh string) inventory.Record {
	f.T.Helper()
	recs, err := f.Env.Deps.Inventory().Records(context.Background(), f.Acct.ID,
		[]inventory.SKUWarehouse{{SKU: sku, Warehouse: wh}})
	if err != nil {
		f.T.Fatal(err)
	}
	if len(recs) == 0 {
		return inventory.Record{}
	}
	return recs[0]
}

// WantStock checks on_hand and reserved of a record (available follows).
func (f *Fixture) WantStock(sku, wh string, onHand, reserved int64) {
	f.T.Helper()
	r := f.Record(sku, wh)
	if r.OnHand != onHand || r.Reserved != reserved || r.Available != onHand-reserved {
		f.T.Errorf("stock %s@%s = on_hand %d reserved %d available %d; want %d/%d/%d",
			sku, wh, r.OnHand, r.Reserved, r.Available, onHand, reserved, onHand-reserved)
	}
}

// WantAt checks where the first line of order seq is allocated or shipped
// from (warehouse -> quantity; empty for nowhere) and reports whether it is.
func (f *Fixture) WantAt(seq int64, want map[string]int) bool {
	f.T.Helper()
	got := Warehouses(f.Order(seq).Items[0])
	if !maps.Equal(got, want) {
		f.T.Errorf("order %d line 1 is at %v, want %v", seq, got, want)
		return false
	}
	return true
}

// Doc is an import document of the fixture's channel.
func (f *Fixture) Doc(ref, orderedAt string, items ...map[string]any) map[string]any {
	return map[string]any{"channel_uuid": f.Channel, "display_ref": ref, "ordered_at": orderedAt, "items": items}
}

// Line is an import document's line of qty units of sku, at 10 each.
func Line(ref, sku string, qty int) map[string]any {
	return map[string]any{"order_item_ref": ref, "sku": sku, "quantity": qty, "unit_price": 10}
}

// Import imports documents and returns the results; it does not fail the
// test, so a cost case's run (testenv.CostCase) can call it.
func (f *Fixture) Import(docs ...any) ([]orders.Result, error) {
	raws := make([]json.RawMessage, len(docs))
	for i, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		raws[i] = b
	}
	return f.Svc.Import(context.Background(), f.Acct.ID, raws)
}

// ImportDocs imports documents and returns the results.
func (f *Fixture) ImportDocs(docs ...any) []orders.Result {
	f.T.Helper()
	res, err := f.Import(docs...)
	if err != nil {
		f.T.Fatalf("import: %v", err)
	}
	return res
}

// ImportOne imports one valid document and returns its seq.
func (f *Fixture) ImportOne(doc any) int64 {
	f.T.Helper()
	res := f.ImportDocs(doc)
	if res[0].Result == orders.ResultError || res[0].Seq == nil {
		f.T.Fatalf("import: %+v", res[0])
	}
	return *res[0].Seq
}

// Order reads an order through the API.
func (f *Fixture) Order(seq int64) orders.Order {
	f.T.Helper()
	r := f.C.Do("GET", fmt.Sprintf("/orders/%d", seq), nil)
	if r.Status != http.StatusOK {
		f.T.Fatalf("GET order %d: %d %s", seq, r.Status, r)
	}
	var o orders.Order
	r.JSON(f.T, &o)
	return o
}

// List GETs a list path and decodes the orders.
func (f *Fixture) List(path string) []orders.Order {
	f.T.Helper()
	r := f.C.Do("GET", path, nil)
	if r.Status != http.StatusOK {
		f.T.Fatalf("GET %s: %d %s", path, r.Status, r)
	}
	var out []orders.Order
	r.JSON(f.T, &out)
	return out
}

// Ship posts a shipment and returns the response.
func (f *Fixture) Ship(body map[string]any) *testenv.Response {
	f.T.Helper()
	return f.C.Do("POST", "/shipments", map[string]any{"shipment": body})
}

// Seqs returns the seqs of a list of orders.
func Seqs(list []orders.Order) []int64 {
	out := make([]int64, len(list))
	for i, o := range list {
		out[i] = o.Seq
	}
	return out
}

// Warehouses returns an item's warehouses as uuid -> quantity.
func Warehouses(it orders.Item) map[string]int {
	out := map[string]int{}
	for _, w := range it.Warehouses {
		out[w.WarehouseUUID] = w.Quantity
	}
	return out
}
