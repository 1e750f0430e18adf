package orders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fixture is one fresh account with a client and helpers for the other
// domains' setup (called in-process, since their routes are not ours).
type fixture struct {
	t    *testing.T
	env  *testenv.Env
	acct testenv.Account
	c    *testenv.Client
	svc  orders.Service
	ch   string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f := &fixture{t: t, env: env, acct: acct, c: env.Client(t, acct), svc: orders.Service{Table: env.Deps.Table}}
	ch, err := channels.Create(context.Background(), env.Deps.Table, acct.ID, channels.Input{Name: "Amazon US", Type: "Amazon"})
	if err != nil {
		t.Fatal(err)
	}
	f.ch = ch.UUID
	t.Cleanup(func() {
		if err := orders.CheckInvariants(context.Background(), env.Deps.Table, acct.ID); err != nil {
			t.Errorf("invariants: %v", err)
		}
	})
	return f
}

// warehouse creates a warehouse through the API and returns its uuid.
func (f *fixture) warehouse(name string) string {
	f.t.Helper()
	r := f.c.Do("POST", "/warehouses", map[string]any{"warehouse": map[string]any{"name": name}})
	if r.Status != http.StatusOK {
		f.t.Fatalf("create warehouse: %d %s", r.Status, r)
	}
	var out struct {
		UUID string `json:"warehouse_uuid"`
	}
	r.JSON(f.t, &out)
	return out.UUID
}

// invoke runs another domain's endpoint in-process as the account.
func (f *fixture) invoke(function, method string, params map[string]string, body any) events.APIGatewayProxyResponse {
	f.t.Helper()
	h, err := f.env.Deps.Handler(function)
	if err != nil {
		f.t.Fatal(err)
	}
	b, _ := json.Marshal(body)
	resp, err := h.(app.HTTPHandler)(context.Background(), events.APIGatewayProxyRequest{
		HTTPMethod: method, Body: string(b), PathParameters: params,
		RequestContext: events.APIGatewayProxyRequestContext{Authorizer: map[string]any{
			"account_id": f.acct.ID, "rps": testenv.Unthrottled, "rpm": testenv.Unthrottled}},
	})
	if err != nil || resp.StatusCode >= 300 {
		f.t.Fatalf("%s: %d %s %v", function, resp.StatusCode, resp.Body, err)
	}
	return resp
}

// product creates a product of the catalog.
func (f *fixture) product(sku string) {
	f.t.Helper()
	f.invoke("products-upsert", "POST", map[string]string{"sku": sku}, map[string]any{"name": "Product " + sku})
}

// stock creates the inventory record (sku, wh) with on_hand (POST /inventory).
func (f *fixture) stock(sku, wh string, onHand int) {
	f.t.Helper()
	f.invoke("inventory-create", "POST", nil, map[string]any{"inventory": []any{
		map[string]any{"sku": sku, "warehouse_uuid": wh, "on_hand": onHand}}})
}

// adjust sets on_hand of (sku, wh) through PUT /inventory and waits until the
// queued adjustment (and its stock listener) has run.
func (f *fixture) adjust(sku, wh string, onHand int) {
	f.t.Helper()
	f.invoke("inventory-adjust", "PUT", nil, map[string]any{"inventory": []any{
		map[string]any{"sku": sku, "warehouse_uuid": wh, "on_hand": onHand}}})
	f.env.Drain(f.t)
}

// record reads an inventory record.
func (f *fixture) record(sku, wh string) inventory.Record {
	f.t.Helper()
	out, err := f.env.Deps.Table.DB.GetItem(context.Background(), &dynamodb.GetItemInput{
		TableName: aws.String(f.env.Deps.Table.Name), Key: inventory.Key(f.acct.ID, sku, wh), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		f.t.Fatal(err)
	}
	var r inventory.Record
	if err := attributevalue.UnmarshalMap(out.Item, &r); err != nil {
		f.t.Fatal(err)
	}
	return r
}

// wantStock checks on_hand and reserved of a record (available follows).
func (f *fixture) wantStock(sku, wh string, onHand, reserved int64) {
	f.t.Helper()
	r := f.record(sku, wh)
	if r.OnHand != onHand || r.Reserved != reserved || r.Available != onHand-reserved {
		f.t.Errorf("stock %s@%s = on_hand %d reserved %d available %d; want %d/%d/%d",
			sku, wh, r.OnHand, r.Reserved, r.Available, onHand, reserved, onHand-reserved)
	}
}

// doc is an import document of the fixture's channel.
func (f *fixture) doc(ref, orderedAt string, items ...map[string]any) map[string]any {
	return map[string]any{"channel_uuid": f.ch, "display_ref": ref, "ordered_at": orderedAt, "items": items}
}

func line(ref, sku string, qty int) map[string]any {
	return map[string]any{"order_item_ref": ref, "sku": sku, "quantity": qty, "unit_price": 10}
}

// importDocs imports documents and returns the results.
func (f *fixture) importDocs(docs ...any) []orders.Result {
	f.t.Helper()
	raws := make([]json.RawMessage, len(docs))
	for i, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			f.t.Fatal(err)
		}
		raws[i] = b
	}
	res, err := f.svc.Import(context.Background(), f.acct.ID, raws)
	if err != nil {
		f.t.Fatalf("import: %v", err)
	}
	return res
}

// importOne imports one valid document and returns its seq.
func (f *fixture) importOne(doc any) int64 {
	f.t.Helper()
	res := f.importDocs(doc)
	if res[0].Result == orders.ResultError || res[0].Seq == nil {
		f.t.Fatalf("import: %+v", res[0])
	}
	return *res[0].Seq
}

// order reads an order through the API.
func (f *fixture) order(seq int64) orders.Order {
	f.t.Helper()
	r := f.c.Do("GET", fmt.Sprintf("/orders/%d", seq), nil)
	if r.Status != http.StatusOK {
		f.t.Fatalf("GET order %d: %d %s", seq, r.Status, r)
	}
	var o orders.Order
	r.JSON(f.t, &o)
	return o
}

// list GETs a list path and decodes the orders.
func (f *fixture) list(path string) []orders.Order {
	f.t.Helper()
	r := f.c.Do("GET", path, nil)
	if r.Status != http.StatusOK {
		f.t.Fatalf("GET %s: %d %s", path, r.Status, r)
	}
	var out []orders.Order
	r.JSON(f.t, &out)
	return out
}

// ship posts a shipment and returns the response.
func (f *fixture) ship(body map[string]any) *testenv.Response {
	f.t.Helper()
	return f.c.Do("POST", "/shipments", map[string]any{"shipment": body})
}

// seqs returns the seqs of a list of orders.
func seqs(list []orders.Order) []int64 {
	out := make([]int64, len(list))
	for i, o := range list {
		out[i] = o.Seq
	}
	return out
}

// whs renders an item's warehouses as "wh:qty" strings.
func whs(it orders.Item) map[string]int {
	out := map[string]int{}
	for _, w := range it.Warehouses {
		out[w.WarehouseUUID] = w.Quantity
	}
	return out
}
