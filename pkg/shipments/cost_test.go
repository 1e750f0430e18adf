package shipments_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// costCases are the shipment endpoints with their DynamoDB budgets
// (docs/shipments.md), through the gateway, so each request also pays the
// rate limiter's one UpdateItem. POST /shipments: one GetItem of the order
// and one TransactWriteItems of every effect, with or without
// warehouse_uuid; a first page of GET /shipments one read of the count
// item, then no Query when the count is 0 (an account without shipments);
// with sb_order_seq one Query counting the order's shipments (the bounded
// count) and one Query of the page (GSI1); GET /carriers nothing. Each
// run ships a new order of 2 units allocated at the warehouse, imported
// unmetered before the request, in an account of its own.
func costCases(tb testing.TB) []testenv.CostCase {
	f := orderstest.New(tb)
	wh := f.Warehouse("W")
	f.Product("S")
	f.Stock("S", wh, 1_000_000)
	shipment := func(warehouse bool) func(context.Context, int) error {
		return func(ctx context.Context, i int) error {
			res, err := f.Import(f.Doc(fmt.Sprintf("SHIP-%t-%d", warehouse, i), "2024-02-01T00:00:00Z", orderstest.Line("1", "S", 2)))
			if err != nil {
				return err
			}
			if res[0].Seq == nil || res[0].Result != orders.ResultCreated {
				return fmt.Errorf("import: %+v", res[0])
			}
			body := map[string]any{"sb_order_seq": *res[0].Seq, "carrier_name": "UPS", "tracking_number": "1Z" + strconv.Itoa(i),
				"items": []any{map[string]any{"sku": "S", "quantity": 2}}}
			if warehouse {
				body["warehouse_uuid"] = wh
			}
			return f.Env.Request(f.Acct, http.MethodPost, "/shipments", http.StatusOK,
				func(int) any { return map[string]any{"shipment": body} })(ctx, i)
		}
	}
	budget := map[string]int{"GetItem": 1, "TransactWriteItems": 1, "UpdateItem": 1} // UpdateItem: the rate limiter
	// A shipment to list, by order too.
	seq := f.ImportOne(f.Doc("LISTED", "2024-02-01T00:00:00Z", orderstest.Line("1", "S", 1)))
	if r := f.Ship(map[string]any{"sb_order_seq": seq, "carrier_name": "UPS", "tracking_number": "1Z",
		"items": []any{map[string]any{"sku": "S", "quantity": 1}}}); r.Status != http.StatusOK {
		tb.Fatalf("ship: %d %s", r.Status, r)
	}
	// An account without shipments: its list is the count's read alone.
	empty := f.Env.NewAccount(tb, testenv.AccountOptions{})
	none := map[string]int{"BatchGetItem": 1, "UpdateItem": 1}
	list := map[string]int{"Query": 2, "UpdateItem": 1}
	return []testenv.CostCase{
		{Name: "POST /shipments", Run: shipment(true), Want: budget},
		{Name: "POST /shipments without warehouse_uuid", Run: shipment(false), Want: budget},
		{Name: "GET /shipments", Run: f.Env.Request(empty, http.MethodGet, "/shipments", http.StatusOK, nil), Want: none},
		{Name: "GET /shipments?sb_order_seq", Run: f.Env.Request(f.Acct, http.MethodGet, fmt.Sprintf("/shipments?sb_order_seq=%d", seq), http.StatusOK, nil), Want: list},
		{Name: "GET /carriers", Run: f.Env.Request(f.Acct, http.MethodGet, "/carriers", http.StatusOK, nil), Want: map[string]int{"UpdateItem": 1}},
	}
}

// TestCost checks the shipment endpoints' DynamoDB calls against their
// budgets.
func TestCost(t *testing.T) {
	t.Parallel()
	testenv.CheckCosts(t, costCases(t))
}

// BenchmarkCost reports the shipment endpoints' DynamoDB calls and capacity per
// call (make bench).
func BenchmarkCost(b *testing.B) { testenv.BenchCosts(b, costCases(b)) }
