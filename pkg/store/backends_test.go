package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/local/functions"
	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/ratelimit"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// backends are the DynamoDB implementations every store test runs against:
// Dynoxide (what the local stack uses) and AWS DynamoDB Local (the fidelity
// check).
func backends(t *testing.T) map[string]*app.Deps {
	env := testenv.Get(t)
	return map[string]*app.Deps{
		"dynoxide":       env.Deps,
		"dynamodb-local": testenv.DynamoDBLocal(t).Deps,
	}
}

// eachBackend runs test against every backend.
func eachBackend(t *testing.T, test func(t *testing.T, d *app.Deps)) {
	t.Helper()
	for name, d := range backends(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, d)
		})
	}
}

func TestBatchGetAndQueries(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		ctx := context.Background()
		pk := store.PK("acct_store_"+strconv.FormatInt(time.Now().UnixNano(), 36), "T")
		var keys []map[string]types.AttributeValue
		for i := range 150 {
			item := store.Key(pk, fmt.Sprintf("%03d", i))
			if _, err := d.Table.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: d.Table.TableName(), Item: item}); err != nil {
				t.Fatal(err)
			}
			keys = append(keys, store.Key(pk, fmt.Sprintf("%03d", i)))
		}
		keys = append(keys, store.Key(pk, "missing"))
		ctx, meter := store.WithMeter(ctx)
		got, err := d.Table.BatchGet(ctx, keys, false)
		if err != nil || len(got) != 150 {
			t.Fatalf("BatchGet: %d items, %v", len(got), err)
		}
		if ops := meter.Ops(); ops["BatchGetItem"] < 2 {
			t.Errorf("BatchGet of 151 keys made %v calls", ops)
		}
		all, err := d.Table.QueryAll(ctx, pk)
		if err != nil || len(all) != 150 {
			t.Fatalf("QueryAll: %d, %v", len(all), err)
		}
		first, err := d.Table.QueryUpTo(ctx, dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
		}, 10)
		if err != nil || len(first) != 10 {
			t.Fatalf("QueryUpTo: %d, %v", len(first), err)
		}
		if meter.ReadUnits() <= 0 {
			t.Error("no consumed capacity was recorded")
		}
	})
}

func TestCommit(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		ctx := context.Background()
		pk := store.PK("acct_cond_"+strconv.FormatInt(time.Now().UnixNano(), 36), "T")
		create := store.Put(store.Key(pk, "a"), "attribute_not_exists(#PK)", nil)
		if err := d.Table.Commit(ctx, []store.Write{create}); err != nil {
			t.Fatal(err)
		}
		if err := d.Table.Commit(ctx, []store.Write{create}); !store.ConditionFailed(err) {
			t.Fatalf("second conditional put: %v, want a failed condition", err)
		}
		err := d.Table.Commit(ctx, []store.Write{store.Put(store.Key(pk, "b"), "", nil), create})
		reasons := store.CancellationReasons(err)
		if got, want := reasons, []string{"None", "ConditionalCheckFailed"}; !slices.Equal(got, want) || store.TransactionConflict(err) {
			t.Fatalf("cancellation reasons %v, want %v (%v)", got, want, err)
		}
		if items, _ := d.Table.QueryAll(ctx, pk); len(items) != 1 {
			t.Fatalf("a cancelled transaction wrote: %d items", len(items))
		}
		var bump store.Update
		bump.Add = []string{"#n :one"}
		bump.Value(":one", store.N(1))
		bump.Condition = "attribute_exists(#PK)"
		if err := d.Table.Commit(ctx, []store.Write{store.Put(store.Key(pk, "c"), "", nil)}); err != nil {
			t.Fatal(err)
		}
		exists := store.Check(store.Key(pk, "c"), "attribute_exists(#PK)", nil)
		if err := d.Table.Commit(ctx, []store.Write{exists, bump.Write(store.Key(pk, "a")), store.Delete(store.Key(pk, "gone"), "", nil)}); err != nil {
			t.Fatalf("check, update and delete: %v", err)
		}
		var got struct {
			N int `dynamodbav:"n"`
		}
		if found, err := d.Table.Get(ctx, store.Key(pk, "a"), &got, true); err != nil || !found || got.N != 1 {
			t.Fatalf("after the update: %+v, found %v, %v", got, found, err)
		}
		if err := d.Table.Commit(ctx, []store.Write{store.Check(store.Key(pk, "gone"), "attribute_exists(#PK)", nil)}); store.CancellationReasons(err) == nil {
			t.Fatalf("a lone failing check: %v, want a cancelled transaction", err)
		}
	})
}

// TestRateLimitExact: ten concurrent requests in one clock second, exactly
// the account's two pass, on every backend.
func TestRateLimitExact(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		now := time.Date(2026, 5, 1, 12, 0, 30, 0, time.UTC)
		lim := ratelimit.Limiter{Table: d.Table, Now: func() time.Time { return now }}
		acct := api.Account{ID: "acct_rl_" + strconv.FormatInt(time.Now().UnixNano(), 36), RPS: 2, RPM: 40}
		var wg sync.WaitGroup
		var mu sync.Mutex
		passed := 0
		for range 10 {
			wg.Go(func() {
				q, err := lim.Allow(context.Background(), acct)
				if err != nil {
					t.Error(err)
				}
				if !q.Allowed && q.Reset != 1 {
					t.Errorf("Retry-After %d, want 1", q.Reset)
				}
				mu.Lock()
				defer mu.Unlock()
				if q.Allowed {
					passed++
				}
			})
		}
		wg.Wait()
		if passed != 2 {
			t.Fatalf("%d of 10 passed, want 2", passed)
		}
	})
}

// TestScenario drives the API through a gateway over each backend: stock in
// two warehouses, an order split over both, its shipment, an adjustment, and
// the invariants of the whole account at the end.
func TestScenario(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		ctx := context.Background()
		gw, err := gateway.NewGateway(env.Template, functions.Lookup(d), gateway.Options{})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(gw)
		defer srv.Close()
		created, err := d.Accounts().Create(ctx, accounts.Input{Name: t.Name(), RPS: 1000, RPM: 100000})
		if err != nil {
			t.Fatal(err)
		}
		call := func(method, path string, body any, want int) map[string]any {
			t.Helper()
			b, _ := json.Marshal(body)
			req, _ := http.NewRequest(method, srv.URL+"/v1"+path, bytes.NewReader(b))
			req.SetBasicAuth(created.AccountToken, created.SecretKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			data, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != want {
				t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, data, want)
			}
			var out map[string]any
			if len(data) > 0 && data[0] == '{' {
				_ = json.Unmarshal(data, &out)
			} else if len(data) > 0 && data[0] == '[' {
				var list []any
				_ = json.Unmarshal(data, &list)
				out = map[string]any{"list": list}
			}
			return out
		}
		wh := func(name string) string {
			return call("POST", "/warehouses", map[string]any{"warehouse": map[string]any{"name": name}}, 200)["warehouse_uuid"].(string)
		}
		a, b := wh("A"), wh("B")
		call("PUT", "/products/SKU-1", map[string]any{"name": "Widget"}, 200)
		call("POST", "/inventory", map[string]any{"inventory": []any{
			map[string]any{"sku": "SKU-1", "warehouse_uuid": a, "on_hand": 1},
			map[string]any{"sku": "SKU-1", "warehouse_uuid": b, "on_hand": 1},
		}}, 201)
		ch, err := d.Channels().Create(ctx, created.AccountID, channels.Input{Name: "Shop", Type: "Shopify"})
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := json.Marshal(map[string]any{"channel_uuid": ch.UUID, "display_ref": "1001", "ordered_at": "2026-05-01T10:00:00Z",
			"paid_at": "2026-05-01T10:01:00Z", "items": []any{map[string]any{"order_item_ref": "L1", "sku": "SKU-1", "quantity": 2}}})
		res, err := d.Orders().Import(ctx, created.AccountID, []json.RawMessage{doc})
		if err != nil || len(res) != 1 || res[0].Result != orders.ResultCreated {
			t.Fatalf("import: %+v %v", res, err)
		}
		order := call("GET", "/orders/1", nil, 200)
		item := order["items"].([]any)[0].(map[string]any)
		if whs := item["warehouses"].([]any); len(whs) != 2 {
			t.Fatalf("the order is not split over A and B: %v", whs)
		}
		if list := call("GET", "/warehouses/"+a+"/fulfillments", nil, 200)["list"].([]any); len(list) != 1 {
			t.Fatalf("fulfillments at A: %v", list)
		}
		call("POST", "/shipments", map[string]any{"shipment": map[string]any{"sb_order_seq": "1", "carrier_name": "UPS",
			"tracking_number": "1Z999", "items": []any{map[string]any{"sku": "SKU-1", "quantity": 2}}}}, 200)
		order = call("GET", "/orders/1", nil, 200)
		if order["sb_status"] != "completed" || order["shipment_status"] != "all" {
			t.Fatalf("after shipping: %v %v", order["sb_status"], order["shipment_status"])
		}
		five := int64(5)
		if _, err := d.Inventory().Apply(ctx, inventory.Adjustment{RequestID: store.NewID(),
			Account: created.AccountID, Method: inventory.MethodPut, Items: []inventory.Item{{SKU: "SKU-1", Warehouse: a, OnHand: &five}}}); err != nil {
			t.Fatal(err)
		}
		for _, rec := range call("GET", "/inventory", nil, 200)["list"].([]any) {
			r := rec.(map[string]any)
			want := 0.0
			if r["warehouse_uuid"] == a {
				want = 5
			}
			if r["on_hand"] != want || r["reserved"] != 0.0 || r["available"] != want {
				t.Errorf("inventory %v", r)
			}
		}
		if err := d.Orders().CheckInvariants(ctx, created.AccountID); err != nil {
			t.Fatalf("invariants: %v", err)
		}
	})
}

// TestCommitAnswerLost: a transaction whose answer is lost on the way back (the connection
// breaks after the table applied it) is retried by the SDK and reported done, not cancelled by
// the conditions its own first attempt made false: the SDK gives each TransactWriteItems a
// ClientRequestToken, which its retries repeat and the table answers as it did the first time.
func TestCommitAnswerLost(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		var dropped atomic.Bool
		backend := aws.ToString(d.Table.DB.Options().BaseEndpoint)
		front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			req, _ := http.NewRequestWithContext(r.Context(), r.Method, backend+r.URL.Path, bytes.NewReader(body))
			req.Header = r.Header.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("proxy: %v", err)
				panic(http.ErrAbortHandler)
			}
			defer resp.Body.Close()
			if strings.HasSuffix(r.Header.Get("X-Amz-Target"), ".TransactWriteItems") && dropped.CompareAndSwap(false, true) {
				panic(http.ErrAbortHandler) // applied, and the connection breaks with the answer unsent
			}
			for k, v := range resp.Header {
				w.Header()[k] = v
			}
			w.WriteHeader(resp.StatusCode)
			_, _ = io.Copy(w, resp.Body)
		}))
		t.Cleanup(front.Close)
		table := d.Table
		table.DB = dynamodb.New(d.Table.DB.Options(), func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(front.URL) })
		pk := store.PK("acct_lost_"+strconv.FormatInt(time.Now().UnixNano(), 36), "T")
		ws := []store.Write{
			store.Put(store.Key(pk, "a"), "attribute_not_exists(#PK)", nil),
			store.Put(store.Key(pk, "b"), "attribute_not_exists(#PK)", nil),
		}
		if err := table.Commit(context.Background(), ws); err != nil {
			t.Fatalf("Commit = %v, want the retry of the applied transaction to succeed", err)
		}
		if !dropped.Load() {
			t.Fatal("no transaction answer was dropped")
		}
		if items, _ := d.Table.QueryAll(context.Background(), pk); len(items) != 2 {
			t.Errorf("%d items, want 2", len(items))
		}
	})
}
