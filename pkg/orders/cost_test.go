package orders_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// shop is a fresh account with a channel, a warehouse, and a product "S"
// with stock at the warehouse.
type shop struct {
	env  *testenv.Env
	acct testenv.Account
	ch   channels.Channel
	wh   string
	svc  orders.Service
}

// newShop creates a shop with onHand units of "S". With check, the
// account's invariants are verified when the test ends.
func newShop(tb testing.TB, onHand int64, check bool) *shop {
	tb.Helper()
	ctx := context.Background()
	env := testenv.Get(tb)
	s := &shop{env: env, acct: env.NewAccount(tb, testenv.AccountOptions{}), svc: env.Deps.Orders()}
	var err error
	if s.ch, err = env.Deps.Channels().Create(ctx, s.acct.ID, channels.Input{Name: "Amazon US", Type: "Amazon"}); err != nil {
		tb.Fatal(err)
	}
	c := env.Client(tb, s.acct)
	if r := c.Do(http.MethodPut, "/products/S", map[string]any{"name": "Product S"}); r.Status >= 300 {
		tb.Fatalf("create product: %d %s", r.Status, r)
	}
	r := c.Do(http.MethodPost, "/warehouses", map[string]any{"warehouse": map[string]any{"name": "W"}})
	if r.Status != http.StatusOK {
		tb.Fatalf("create warehouse: %d %s", r.Status, r)
	}
	var w struct {
		UUID string `json:"warehouse_uuid"`
	}
	r.JSON(tb, &w)
	s.wh = w.UUID
	if err := env.Deps.Inventory().Create(ctx, s.acct.ID, []inventory.Item{{SKU: "S", Warehouse: s.wh, OnHand: &onHand}}); err != nil {
		tb.Fatal(err)
	}
	if check {
		tb.Cleanup(func() {
			if err := env.Deps.Orders().CheckInvariants(context.Background(), s.acct.ID); err != nil {
				tb.Errorf("invariants: %v", err)
			}
		})
	}
	return s
}

// importOrder imports one order of qty units of "S" (allocated at the
// shop's warehouse, which has the stock), unmetered, and returns its seq.
func (s *shop) importOrder(ref, orderedAt string, qty int, extra map[string]any) (int64, error) {
	doc := map[string]any{"channel_uuid": s.ch.UUID, "display_ref": ref, "ordered_at": orderedAt,
		"items": []any{map[string]any{"order_item_ref": "1", "sku": "S", "quantity": qty, "unit_price": 10}}}
	for k, v := range extra {
		doc[k] = v
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return 0, err
	}
	res, err := s.svc.Import(context.Background(), s.acct.ID, []json.RawMessage{raw})
	if err != nil {
		return 0, err
	}
	if res[0].Seq == nil || res[0].Result != orders.ResultCreated {
		return 0, fmt.Errorf("import %s: %+v", ref, res[0])
	}
	return *res[0].Seq, nil
}

// costCases are the orders endpoints with their DynamoDB budgets
// (docs/orders.md, acceptance item 4), each through the gateway, so each
// request also pays the rate limiter's one UpdateItem. The listings read an
// account of 30 imported orders (allocated, some paid, some cancelled).
// Every page reads where it starts and the list's count in one
// BatchGetItem (store.Table.Page; page 1 only the count), and a page that
// another follows writes where that one starts (PutItem). The list of all
// orders is a Query of the orders themselves; a status filter's is a Query
// of index items, then one BatchGetItem of the orders; a range filter's
// first page also counts the range (a second Query).
// POST /shipments' budget is checked by pkg/shipments' TestCost.
func costCases(tb testing.TB) []testenv.CostCase {
	list := newShop(tb, 1000, true)
	for i := range 30 {
		var extra map[string]any
		if i%2 == 0 {
			extra = map[string]any{"paid_at": "2024-03-01T00:00:00Z"}
		}
		if i%5 == 4 {
			extra = map[string]any{"cancelled_at": "2024-03-01T00:00:00Z"}
		}
		if _, err := list.importOrder(fmt.Sprintf("L-%02d", i), fmt.Sprintf("2024-02-%02dT12:00:00Z", i%28+1), 1, extra); err != nil {
			tb.Fatal(err)
		}
	}
	get := func(path string) func(context.Context, int) error {
		return list.env.Request(list.acct, http.MethodGet, path, http.StatusOK, nil)
	}
	calls := func(query, batchGet, getItem, putItem int) map[string]int {
		m := map[string]int{"UpdateItem": 1} // the rate limiter
		for op, n := range map[string]int{"Query": query, "BatchGetItem": batchGet, "GetItem": getItem, "PutItem": putItem} {
			if n > 0 {
				m[op] = n
			}
		}
		return m
	}
	all, filtered, ranged := calls(1, 1, 0, 0), calls(1, 2, 0, 0), calls(2, 0, 0, 0)
	return []testenv.CostCase{
		{Name: "GET /orders", Run: get("/orders"), Want: all},
		{Name: "GET /orders?sb_status=open", Run: get("/orders?sb_status=open"), Want: filtered},
		{Name: "GET /orders?sb_status=cancelled", Run: get("/orders?sb_status=cancelled"), Want: filtered},
		{Name: "GET /orders?sb_payment_status=all", Run: get("/orders?sb_payment_status=all"), Want: filtered},
		{Name: "GET /orders?shipment_status=none", Run: get("/orders?shipment_status=none"), Want: filtered},
		{Name: "GET /orders?min_ordered_at", Run: get("/orders?min_ordered_at=2024-02-10"), Want: ranged},
		{Name: "GET /orders?max_ordered_at", Run: get("/orders?max_ordered_at=2024-02-20"), Want: ranged},
		{Name: "GET /orders?limit=10&page=3 (jump)", Run: func(ctx context.Context, i int) error {
			// No page start known: a Query of the cursors finds none, one
			// reads the keys of pages 1 and 2, and page 3's start is kept.
			if err := orders.ForgetCursors(list.env.Deps.Table, list.acct.ID); err != nil {
				return err
			}
			return get("/orders?limit=10&page=3")(ctx, i)
		}, Want: calls(3, 1, 0, 1)},
		{Name: "GET /orders?limit=10 pages 1-3 (sequential)", Run: func(ctx context.Context, i int) error {
			for p := 1; p <= 3; p++ {
				if err := get(fmt.Sprintf("/orders?limit=10&page=%d", p))(ctx, i); err != nil {
					return err
				}
			}
			return nil
		}, Want: map[string]int{"Query": 3, "BatchGetItem": 3, "PutItem": 2, "UpdateItem": 3}},
		{Name: "GET /orders?updated_at_min", Run: get("/orders?updated_at_min=2024-01-01"), Want: ranged},
		{Name: "GET /orders?updated_at_min&sb_status=open", Run: get("/orders?updated_at_min=2024-01-01&sb_status=open"), Want: ranged},
		{Name: "GET /orders/{sb_order_seq}", Run: get("/orders/7"), Want: calls(0, 0, 1, 0)},
		{Name: "GET /warehouses/{uuid}/fulfillments", Run: get("/warehouses/" + list.wh + "/fulfillments"), Want: filtered},
		{Name: "GET /warehouses/fulfillments/{uuid}", Run: get("/warehouses/fulfillments/" + list.wh), Want: filtered},
		{Name: "GET /warehouses/{uuid}/fulfillments?sb_payment_status=partial (empty)",
			// Counted empty: no page to read; the warehouse is read to tell
			// an unknown one.
			Run: get("/warehouses/" + list.wh + "/fulfillments?sb_payment_status=partial"), Want: calls(1, 0, 1, 0)},
	}
}

// TestCost checks each endpoint's DynamoDB calls against its budget.
func TestCost(t *testing.T) {
	t.Parallel()
	testenv.CheckCosts(t, costCases(t))
}

// BenchmarkCost reports each endpoint's DynamoDB calls and capacity per
// call (make bench).
func BenchmarkCost(b *testing.B) { testenv.BenchCosts(b, costCases(b)) }

// recorder is a DynamoDB client of the test table that records every
// call's input and output (and, through the store's metering, its
// consumed capacity), to see what each Query read.
type recorder struct {
	mu    sync.Mutex
	calls []call
	svc   orders.Handlers
}

type call struct {
	in  any
	out any
}

func newRecorder(env *testenv.Env) *recorder {
	r := &recorder{}
	db := dynamodb.New(env.Deps.Table.DB.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(slices.Clip(o.APIOptions), func(s *middleware.Stack) error {
			return s.Initialize.Add(middleware.InitializeMiddlewareFunc("record", func(ctx context.Context,
				in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				params := in.Parameters
				if q, ok := params.(*dynamodb.QueryInput); ok {
					cp := *q // the caller reuses its input for the next Query
					params = &cp
				}
				out, md, err := next.HandleInitialize(ctx, in)
				if err == nil {
					r.mu.Lock()
					r.calls = append(r.calls, call{in: params, out: out.Result})
					r.mu.Unlock()
				}
				return out, md, err
			}), middleware.After)
		})
	})
	r.svc = orders.Handlers{Service: (&app.Deps{Table: store.Table{DB: db, Name: env.Deps.Table.Name}}).Orders()}
	return r
}

// serve runs GET /orders (wh "") or the warehouse's fulfillments
// in-process with the query, and returns the orders listed, the calls made
// and the read units they consumed.
func (r *recorder) serve(t *testing.T, acct, wh string, query map[string]string) ([]orders.Order, []call, float64) {
	t.Helper()
	req := &api.Request{Account: api.Account{ID: acct}}
	req.QueryStringParameters = query
	h := r.svc.List
	if wh != "" {
		req.PathParameters = map[string]string{"uuid": wh}
		h = r.svc.Fulfillments
	}
	r.mu.Lock()
	r.calls = nil
	r.mu.Unlock()
	ctx, meter := store.WithMeter(context.Background())
	res, err := h(ctx, req)
	if err != nil {
		t.Fatalf("list %v: %v", query, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return res.Body.([]orders.Order), r.calls, meter.ReadUnits()
}

// queries returns the Query calls of the list among calls: not those of
// the pager's cursors (<acct>#CUR) nor a range's count (Select COUNT),
// which countQueries returns.
func queries(calls []call) (ins []*dynamodb.QueryInput, outs []*dynamodb.QueryOutput) {
	for _, c := range calls {
		if in, ok := c.in.(*dynamodb.QueryInput); ok && in.Select != types.SelectCount && !cursorQuery(in) {
			ins, outs = append(ins, in), append(outs, c.out.(*dynamodb.QueryOutput))
		}
	}
	return ins, outs
}

// countQueries returns the outputs of the Select COUNT Queries among calls.
func countQueries(calls []call) (outs []*dynamodb.QueryOutput) {
	for _, c := range calls {
		if in, ok := c.in.(*dynamodb.QueryInput); ok && in.Select == types.SelectCount {
			outs = append(outs, c.out.(*dynamodb.QueryOutput))
		}
	}
	return outs
}

// cursorQuery reports whether in reads the pager's cursors.
func cursorQuery(in *dynamodb.QueryInput) bool {
	pk, _ := in.ExpressionAttributeValues[":pk"].(*types.AttributeValueMemberS)
	return pk != nil && strings.HasSuffix(pk.Value, "#CUR")
}

// batchKeys returns the order keys (<acct>#O) the BatchGetItem calls among
// calls read, and how many calls read them (the pager's BatchGetItem of a
// page's start and count is not one).
func batchKeys(calls []call) (n int, keys []map[string]types.AttributeValue) {
	for _, c := range calls {
		in, ok := c.in.(*dynamodb.BatchGetItemInput)
		if !ok {
			continue
		}
		var orderKeys []map[string]types.AttributeValue
		for _, ka := range in.RequestItems {
			for _, k := range ka.Keys {
				if pk, _ := k[store.AttrPK].(*types.AttributeValueMemberS); pk != nil && strings.HasSuffix(pk.Value, "#O") {
					orderKeys = append(orderKeys, k)
				}
			}
		}
		if len(orderKeys) > 0 {
			n++
			keys = append(keys, orderKeys...)
		}
	}
	return n, keys
}

func rcu(c *types.ConsumedCapacity) float64 {
	if c == nil || c.CapacityUnits == nil {
		return 0
	}
	return *c.CapacityUnits
}

func sk(item map[string]types.AttributeValue) string {
	s, _ := item[store.AttrSK].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// TestSequentialPagingIsLinear walks every page (limit 10) of listings of
// 250 orders: each page is one Query of at most a page, starting where the
// previous one ended, so the walk reads each index item (or, for the lists
// of GSI1, each order) once and costs reads in proportion to the orders,
// not to their square (acceptance item 4). A range's count is taken on
// page 1 only.
func TestSequentialPagingIsLinear(t *testing.T) {
	t.Parallel()
	s := seed(t, 250, true)
	rec := newRecorder(s.env)
	for _, tt := range []struct {
		name    string
		wh      string
		query   map[string]string
		matches int
		whole   bool // the Query reads the orders: no BatchGetItem of them
	}{
		{"GET /orders", "", nil, 250, true},
		{"GET /orders?sb_status=open", "", map[string]string{"sb_status": "open"}, 200, false},
		{"GET /orders?min_ordered_at", "", map[string]string{"min_ordered_at": seedTime(51)}, 200, true},
		{"GET fulfillments", s.wh, nil, 200, false},
	} {
		const limit = 10
		var (
			seen        = map[string]bool{}
			lastSK      string
			pages, read int
			listed      int
			queryRCU    float64 // read units of the Queries
			firstRCU    float64 // of page 1's Query
			totalRCU    float64 // of every call
			firstTotal  float64 // of page 1
		)
		for p := 1; ; p++ {
			q := map[string]string{"limit": strconv.Itoa(limit), "page": strconv.Itoa(p)}
			for k, v := range tt.query {
				q[k] = v
			}
			list, calls, units := rec.serve(t, s.acct.ID, tt.wh, q)
			pages++
			totalRCU += units
			listed += len(list)
			ins, outs := queries(calls)
			if len(ins) == 0 && len(list) == 0 && (p-1)*limit >= tt.matches {
				break // past the end, which the list's count tells: nothing read
			}
			if len(ins) != 1 {
				t.Fatalf("%s page %d: %d Queries, want 1", tt.name, p, len(ins))
			}
			in, out := ins[0], outs[0]
			if got := aws.ToInt32(in.Limit); got != limit {
				t.Errorf("%s page %d: Query Limit %d, want %d", tt.name, p, got, limit)
			}
			if start := sk(in.ExclusiveStartKey); start != lastSK {
				t.Errorf("%s page %d: starts after %q, want after %q (the end of page %d)", tt.name, p, start, lastSK, p-1)
			}
			if out.ScannedCount != out.Count {
				t.Errorf("%s page %d: scanned %d items for %d", tt.name, p, out.ScannedCount, out.Count)
			}
			for _, it := range out.Items {
				if seen[sk(it)] {
					t.Errorf("%s page %d: re-read %q", tt.name, p, sk(it))
				}
				seen[sk(it)] = true
				lastSK = sk(it)
			}
			read += int(out.ScannedCount)
			queryRCU += rcu(out.ConsumedCapacity)
			if p == 1 {
				firstRCU, firstTotal = rcu(out.ConsumedCapacity), units
			}
			if n, keys := batchKeys(calls); tt.whole && n > 0 || !tt.whole && (len(keys) != len(list) || n > 1) {
				t.Errorf("%s page %d: %d BatchGetItems of %d order keys for %d orders", tt.name, p, n, len(keys), len(list))
			}
			if counts := countQueries(calls); p > 1 && len(counts) > 0 {
				t.Errorf("%s page %d: %d count Queries, want none past page 1", tt.name, p, len(counts))
			}
			if len(list) < limit {
				break
			}
		}
		wantPages := tt.matches/limit + 1
		if pages != wantPages || listed != tt.matches || read != tt.matches {
			t.Errorf("%s: %d pages listing %d orders read %d index items; want %d pages, %d orders, %d items",
				tt.name, pages, listed, read, wantPages, tt.matches, tt.matches)
		}
		// A page after the first also reads where it starts: one small
		// item, eventually consistent, with the count (cursorRCU).
		const cursorRCU = 1
		if firstRCU == 0 || queryRCU > float64(pages)*firstRCU || totalRCU > float64(pages)*(firstTotal+cursorRCU) {
			t.Errorf("%s: the walk consumed %g RCU (%g in Queries), more than %d pages × %g+%d (%g) of page 1",
				tt.name, totalRCU, queryRCU, pages, firstTotal, cursorRCU, firstRCU)
		}
		t.Logf("%s: %d pages, %d Queries reading %d index items, %g RCU (%g in Queries)", tt.name, pages, pages, read, totalRCU, queryRCU)
	}
}

// TestJumpReadsOnlySkippedKeys: a fresh listing of page P (no page start
// known) is one keys-only Query of the (P-1)×limit skipped items, costing
// no more than their size, then one Query of the page from where the skip
// ended and, for an index partition, one BatchGetItem of the page's
// orders: no order of a skipped page is read, but in the list of all
// orders, whose items in GSI1 are the orders (a Query costs the size of
// the items it reads, whatever its projection). The next page then starts
// where that one ended.
func TestJumpReadsOnlySkippedKeys(t *testing.T) {
	t.Parallel()
	s := seed(t, 250, true)
	rec := newRecorder(s.env)
	for _, tt := range []struct {
		name  string
		wh    string
		query map[string]string
		pk    string
		index string // the GSI of the list, "" for an index partition
	}{
		{"GET /orders", "", nil, s.acct.ID + "#OALL", store.GSI1},
		{"GET /orders?sb_status=open", "", map[string]string{"sb_status": "open"}, s.acct.ID + "#OX#st=open", ""},
		{"GET fulfillments", s.wh, nil, s.acct.ID + "#FX#" + s.wh, ""},
	} {
		const limit, page = 10, 15
		skip := (page - 1) * limit
		if err := orders.ForgetCursors(s.env.Deps.Table, s.acct.ID); err != nil {
			t.Fatal(err)
		}
		q := map[string]string{"limit": strconv.Itoa(limit), "page": strconv.Itoa(page)}
		for k, v := range tt.query {
			q[k] = v
		}
		list, calls, _ := rec.serve(t, s.acct.ID, tt.wh, q)
		ins, outs := queries(calls)
		if len(ins) != 2 || len(list) != limit {
			t.Fatalf("%s page %d: %d Queries and %d orders, want 2 and %d", tt.name, page, len(ins), len(list), limit)
		}
		keysIn, keysOut := ins[0], outs[0]
		projection := "#PK, #SK"
		if tt.index != "" {
			projection += ", #" + tt.index + "PK, #" + tt.index + "SK"
		}
		if aws.ToString(keysIn.ProjectionExpression) != projection || aws.ToInt32(keysIn.Limit) != int32(skip) ||
			keysOut.ScannedCount != int32(skip) || keysIn.ExclusiveStartKey != nil {
			t.Errorf("%s: the skip read %d items (Limit %d, projection %q), want the %d keys of the skipped pages",
				tt.name, keysOut.ScannedCount, aws.ToInt32(keysIn.Limit), aws.ToString(keysIn.ProjectionExpression), skip)
		}
		if start, end := sk(ins[1].ExclusiveStartKey), sk(keysOut.Items[len(keysOut.Items)-1]); start != end || aws.ToInt32(ins[1].Limit) != limit {
			t.Errorf("%s: the page starts after %q (Limit %d), want after the skip's last key %q", tt.name, start, aws.ToInt32(ins[1].Limit), end)
		}
		// The bound: the size of the skipped items, read in full here.
		full := &dynamodb.QueryInput{
			TableName: s.env.Deps.Table.TableName(), KeyConditionExpression: aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(tt.pk)},
			Limit:                     aws.Int32(int32(skip)),
		}
		if tt.index != "" {
			full.IndexName, full.KeyConditionExpression = aws.String(tt.index), aws.String(tt.index+"PK = :pk")
		}
		skipped, err := s.env.Deps.Table.DB.Query(context.Background(), full)
		if err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, it := range skipped.Items {
			size += itemSize(it)
		}
		bound := math.Ceil(float64(size)/4096) / 2 // eventually consistent
		if got := rcu(keysOut.ConsumedCapacity); got == 0 || got > bound {
			t.Errorf("%s: the skip of %d keys consumed %g RCU; the skipped items (%d bytes) cost %g", tt.name, skip, got, size, bound)
		}
		n, keys := batchKeys(calls)
		if tt.index == "" && (n != 1 || len(keys) != limit) || tt.index != "" && n != 0 {
			t.Errorf("%s: %d BatchGetItems of %d order keys", tt.name, n, len(keys))
		}
		for i, o := range list {
			if o.Seq != seqAt(t, outs[1].Items[i]) {
				t.Errorf("%s: order %d is %d, want the page's %d", tt.name, i, o.Seq, seqAt(t, outs[1].Items[i]))
			}
		}
		t.Logf("%s page %d: skip of %d keys %g RCU (bound %g), page Query %g RCU", tt.name, page, skip,
			rcu(keysOut.ConsumedCapacity), bound, rcu(outs[1].ConsumedCapacity))

		q["page"] = strconv.Itoa(page + 1)
		_, calls, _ = rec.serve(t, s.acct.ID, tt.wh, q)
		ins, outs2 := queries(calls)
		if len(ins) != 1 || sk(ins[0].ExclusiveStartKey) != sk(outs[1].Items[limit-1]) {
			t.Errorf("%s page %d after the jump: %d Queries, want 1 starting after page %d", tt.name, page+1, len(ins), page)
		} else if outs2[0].ScannedCount != limit {
			t.Errorf("%s page %d after the jump: read %d items, want %d", tt.name, page+1, outs2[0].ScannedCount, limit)
		}
	}
}

// seqAt is the seq of a index item.
func seqAt(t *testing.T, item map[string]types.AttributeValue) int64 {
	t.Helper()
	n, _ := item["seq"].(*types.AttributeValueMemberN)
	if n == nil {
		t.Fatalf("index item without seq: %v", item)
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// itemSize is an upper bound of an item's DynamoDB size: each attribute's
// name plus its value (a string's bytes, a number's digits plus one, a set's
// members).
func itemSize(item map[string]types.AttributeValue) int {
	size := 0
	for name, v := range item {
		size += len(name)
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			size += len(v.Value)
		case *types.AttributeValueMemberN:
			size += len(v.Value) + 1
		case *types.AttributeValueMemberSS:
			for _, s := range v.Value {
				size += len(s)
			}
		default:
			size += 1024 // not in index items; a generous bound
		}
	}
	return size
}
