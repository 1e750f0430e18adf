package inventory_test

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go/middleware"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// costCase is one endpoint at its largest: run makes the call (i numbers
// the run, for calls that must differ each time) and want is its DynamoDB
// calls. The rate limiter's one write per request is the envelope's and
// not counted.
type costCase struct {
	name  string
	run   func(ctx context.Context, i int) error
	want  map[string]int
	sends int
}

// costCases sets up an account with 50 products and records and returns
// the cases, and a pointer to the number of SQS messages sent so far.
func costCases(tb testing.TB) ([]costCase, *int) {
	f := newFixture(tb)
	w := f.warehouse("W")
	sends := new(int)
	svc := inventory.Handlers{Service: inventory.Service{
		Table: f.env.Deps.Table, Warehouses: f.env.Deps.Warehouses(), Catalog: f.env.Deps.Catalog(),
		Adjustments: queue.Sender{URL: f.env.Config.AdjustmentsQueueURL,
			Client: sqs.New(f.env.Deps.SQS.Options(), func(o *sqs.Options) {
				o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
					return s.Initialize.Add(middleware.InitializeMiddlewareFunc("count", func(ctx context.Context,
						in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
						*sends++
						return next.HandleInitialize(ctx, in)
					}), middleware.After)
				})
			}),
		},
	}}
	items := func(prefix string) string {
		out := make([]string, 50)
		for i := range out {
			out[i] = record(fmt.Sprintf("%s%02d", prefix, i), w, i)
		}
		return body(out...)
	}
	for i := range 50 {
		sku := fmt.Sprintf("S%02d", i)
		f.product(sku, `{"name":"Product `+sku+`"}`)
	}
	for _, prefix := range []string{"S", "T"} {
		if r := f.c.Do(http.MethodPost, "/inventory", items(prefix)); r.Status != http.StatusCreated {
			tb.Fatalf("POST: %d %s", r.Status, r.Body)
		}
	}
	call := func(h api.Handler, method, b string, query map[string][]string) func(context.Context, int) error {
		return func(ctx context.Context, _ int) error {
			// The warehouse list as a busy instance has it: in its copy, fresh
			// (naming a warehouse the copy lacks reads it again, unmetered).
			if _, err := f.env.Deps.Warehouses().Cached(context.Background(), f.acct.ID, []string{"not a warehouse"}); err != nil {
				return err
			}
			req := &api.Request{Account: api.Account{ID: f.acct.ID}}
			req.HTTPMethod, req.Body, req.MultiValueQueryStringParameters = method, b, query
			_, err := h(ctx, req)
			return err
		}
	}
	adj := inventory.Adjustment{RequestID: inventory.NewRequestID(f.acct.ID), Account: f.acct.ID,
		Method: inventory.MethodPut, Items: itemsOf(w, 50)}
	if _, err := f.env.Deps.Inventory().Apply(context.Background(), adj); err != nil {
		tb.Fatal(err)
	}
	return []costCase{
		{name: "GET /inventory page of 100", run: call(svc.List, http.MethodGet, "", map[string][]string{"limit": {"100"}}),
			want: map[string]int{"Query": 1, "BatchGetItem": 1}},
		// A walk's next page: its cursor and the count in one BatchGetItem,
		// its records (product fields in them) in one Query.
		{name: "GET /inventory page 2 of 50", run: func(ctx context.Context, i int) error {
			page := func(n string) map[string][]string { return map[string][]string{"limit": {"50"}, "page": {n}} }
			if err := call(svc.List, http.MethodGet, "", page("1"))(context.Background(), i); err != nil {
				return err
			}
			return call(svc.List, http.MethodGet, "", page("2"))(ctx, i)
		}, want: map[string]int{"Query": 1, "BatchGetItem": 1}},
		// The products to copy in one BatchGetItem; the records and their
		// counts in one transaction.
		{name: "POST /inventory 50 items", run: func(ctx context.Context, i int) error {
			return call(svc.Create, http.MethodPost, items(fmt.Sprintf("P%d-", i)), nil)(ctx, i)
		}, want: map[string]int{"BatchGetItem": 1, "TransactWriteItems": 1}},
		{name: "POST /inventory 1 item", run: func(ctx context.Context, i int) error {
			return call(svc.Create, http.MethodPost, body(record(fmt.Sprintf("One%d", i), w, 1)), nil)(ctx, i)
		}, want: map[string]int{"BatchGetItem": 1, "TransactWriteItems": 1}},
		{name: "PUT /inventory 50 items", run: call(svc.Adjust, http.MethodPut, items("S"), nil),
			want: map[string]int{"PutItem": 1}, sends: 1},
		{name: "PATCH /inventory 50 items", run: call(svc.Adjust, http.MethodPatch, items("S"), nil),
			want: map[string]int{"BatchGetItem": 1, "PutItem": 1}, sends: 1},
		{name: "consumer 50-item message", run: func(ctx context.Context, _ int) error {
			a := adj
			a.RequestID = inventory.NewRequestID(f.acct.ID)
			_, err := f.env.Deps.Inventory().Apply(ctx, a)
			return err
		}, want: map[string]int{"UpdateItem": 51, "TransactWriteItems": 1}}, // the claim, the items, their histories with the status
		// A PUT of missing records: the update finds none, then per record
		// its product and a transaction of the record and its counts.
		{name: "consumer 50-item message creating", run: func(ctx context.Context, i int) error {
			a := inventory.Adjustment{RequestID: inventory.NewRequestID(f.acct.ID), Account: f.acct.ID,
				Method: inventory.MethodPut, Items: make([]inventory.Item, 50)}
			for k := range a.Items {
				a.Items[k] = onHand(fmt.Sprintf("N%d-%02d", i, k), w, 1)
			}
			_, err := f.env.Deps.Inventory().Apply(ctx, a)
			return err
		}, want: map[string]int{"UpdateItem": 51, "BatchGetItem": 50, "TransactWriteItems": 50, "PutItem": 1}},
		{name: "consumer redelivery", run: func(ctx context.Context, _ int) error {
			_, err := f.env.Deps.Inventory().Apply(ctx, adj)
			return err
		}, want: map[string]int{"UpdateItem": 1}},
		// A walk's first page: one Query of the page and one of the
		// bounded count.
		{name: "GET /inventory/history", run: func(ctx context.Context, i int) error {
			req := &api.Request{Account: api.Account{ID: f.acct.ID}}
			req.QueryStringParameters = map[string]string{"sku": adj.Items[0].SKU, "warehouse_uuid": w}
			_, err := svc.History(ctx, req)
			return err
		}, want: map[string]int{"Query": 2}},
		{name: "GET /inventory/adjustments/{id}", run: func(ctx context.Context, _ int) error {
			req := &api.Request{Account: api.Account{ID: f.acct.ID}}
			req.PathParameters = map[string]string{"request_id": adj.RequestID}
			_, err := svc.GetAdjustment(ctx, req)
			return err
		}, want: map[string]int{"GetItem": 1}},
	}, sends
}

// TestCost checks each endpoint's DynamoDB calls and SQS messages against
// its budget.
func TestCost(t *testing.T) {
	t.Parallel()
	cases, sends := costCases(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, meter := store.WithMeter(context.Background())
			before := *sends
			if err := c.run(ctx, 0); err != nil {
				t.Fatal(err)
			}
			if got := meter.Ops(); !maps.Equal(got, c.want) {
				t.Errorf("DynamoDB calls: got %v, want %v", got, c.want)
			}
			if got := *sends - before; got != c.sends {
				t.Errorf("SQS messages: got %d, want %d", got, c.sends)
			}
		})
	}
}

// BenchmarkCost reports each endpoint's DynamoDB calls and capacity per
// call (make bench).
func BenchmarkCost(b *testing.B) {
	cases, _ := costCases(b)
	bench := make([]testenv.CostCase, len(cases))
	for i, c := range cases {
		bench[i] = testenv.CostCase{Name: c.name, Run: c.run, Want: c.want}
	}
	testenv.BenchCosts(b, bench)
}

func itemsOf(w string, n int) []inventory.Item {
	out := make([]inventory.Item, n)
	for i := range out {
		out[i] = onHand(fmt.Sprintf("S%02d", i), w, int64(100+i))
	}
	return out
}
