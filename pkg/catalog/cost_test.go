package catalog_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/testenv"
)

// costCase is one endpoint in one situation: run makes the call (i numbers
// the run, for calls that need their own data, which run sets up outside
// the metered context) and want is its DynamoDB calls. The rate limiter's
// one write per request is the envelope's and not counted.
type costCase struct {
	name string
	run  func(ctx context.Context, i int) error
	want map[string]int
}

// measured converts the cases for testenv's cost checks.
func measured(cases []costCase) []testenv.CostCase {
	out := make([]testenv.CostCase, len(cases))
	for i, c := range cases {
		out[i] = testenv.CostCase{Name: c.name, Run: c.run, Want: c.want}
	}
	return out
}

// handler picks a handler of the catalog service.
type handler func(catalog.Handlers) api.Handler

var (
	getH        handler = func(s catalog.Handlers) api.Handler { return s.Get }
	listH       handler = func(s catalog.Handlers) api.Handler { return s.List }
	upsertH     handler = func(s catalog.Handlers) api.Handler { return s.Upsert }
	deleteH     handler = func(s catalog.Handlers) api.Handler { return s.Delete }
	listGroupsH handler = func(s catalog.Handlers) api.Handler { return s.ListGroups }
	putGroupH   handler = func(s catalog.Handlers) api.Handler { return s.PutGroup }
	deleteGrpH  handler = func(s catalog.Handlers) api.Handler { return s.DeleteGroup }
)

// serve runs a catalog handler in-process for the client's account, with
// sku as the {sku} path parameter and query as the query string.
func (c *catalogClient) serve(ctx context.Context, h handler, sku, query, body string) error {
	req := &api.Request{Account: api.Account{ID: c.acct.ID}}
	req.Body = body
	if sku != "" {
		req.PathParameters = map[string]string{"sku": url.PathEscape(sku)}
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return err
	}
	req.MultiValueQueryStringParameters = q
	_, err = h(catalog.Handlers{Service: c.env.Deps.Catalog()})(ctx, req)
	return err
}

// call is a costCase run that serves one request.
func (c *catalogClient) call(h handler, sku, query, body string) func(context.Context, int) error {
	return func(ctx context.Context, _ int) error { return c.serve(ctx, h, sku, query, body) }
}

// costCases sets up an account with a group of 99 children (the first
// page of 100 products: the group and its children) and a stand-alone
// product, and returns the cases.
func costCases(tb testing.TB) []costCase {
	c := newClient(tb)
	var kids []string
	for i := range catalog.MaxChildren {
		kids = append(kids, c.makeChildren("C", fmt.Sprintf("%03d", i))...)
	}
	c.putGroup("C", groupBody("C", kids...))
	c.put("Z-ALONE", map[string]any{"name": "alone"})
	testenv.Get(tb).Drain(tb) // the stream's reactions to the setup, before anything is measured
	bg := context.Background()
	// child creates a stand-alone product that can join a group, unmetered.
	child := func(sku string) error {
		return c.serve(bg, upsertH, sku, "", `{"name":"x","custom_attributes":{"size":"S"}}`)
	}
	// group creates the group sku with one new child, unmetered.
	group := func(sku string) error {
		if err := child(sku + "-S"); err != nil {
			return err
		}
		return c.serve(bg, putGroupH, sku, "", `{"name":"g","child_skus":["`+sku+`-S"],"variation_attributes":["size"]}`)
	}
	return []costCase{
		{"GET /products/{sku} stand-alone", c.call(getH, "Z-ALONE", "", ""), map[string]int{"GetItem": 1}},
		{"GET /products/{sku} child", c.call(getH, kids[5], "", ""), map[string]int{"GetItem": 1}},
		{"GET /products/{sku} group of 99", c.call(getH, "C", "", ""), map[string]int{"GetItem": 1, "Query": 1}},
		// A page: one BatchGetItem of where it starts and the count, one
		// Query, and the write of where the next page starts.
		{"GET /products page of 100 with the group and its children", c.call(listH, "", "", ""), map[string]int{"BatchGetItem": 1, "Query": 1, "PutItem": 1}},
		{"GET /products page 3 of 10 after page 2", func(ctx context.Context, _ int) error {
			for _, p := range []string{"1", "2"} {
				if err := c.serve(bg, listH, "", "page="+p+"&limit=10", ""); err != nil {
					return err
				}
			}
			return c.serve(ctx, listH, "", "page=3&limit=10", "")
		}, map[string]int{"BatchGetItem": 1, "Query": 1, "PutItem": 1}},
		// A jump: the cursors' Query, the skipped keys' Query, then the page.
		{"GET /products page 7 of 10, a jump", c.call(listH, "", "page=7&limit=10", ""), map[string]int{"BatchGetItem": 1, "Query": 3, "PutItem": 2}},
		{"GET /products page of 1 holding the group", c.call(listH, "", "limit=1&page=1", ""), map[string]int{"Query": 1, "BatchGetItem": 2, "PutItem": 1}},
		{"GET /products?skus (2)", c.call(listH, "", "skus=Z-ALONE&skus="+kids[0], ""), map[string]int{"BatchGetItem": 1}},
		{"GET /products?min_modified_at", c.call(listH, "", "min_modified_at=2000-01-01", ""), map[string]int{"Query": 1}},
		{"GET /variation_groups", c.call(listGroupsH, "", "", ""), map[string]int{"BatchGetItem": 1, "Query": 1}},
		{"PUT /products/{sku} update", c.call(upsertH, "Z-ALONE", "", `{"price":1}`), map[string]int{"GetItem": 1, "PutItem": 1}},
		{"PUT /products/{sku} create", func(ctx context.Context, i int) error {
			return c.serve(ctx, upsertH, fmt.Sprintf("NEW-%d", i), "", `{"name":"new"}`)
		}, map[string]int{"GetItem": 1, "TransactWriteItems": 1}}, // the product and the count
		{"PATCH /products/{sku} child", c.call(upsertH, kids[3], "", `{"price":1}`), map[string]int{"GetItem": 1, "PutItem": 1}},
		{"PATCH /products/{sku} child's variation value", func(ctx context.Context, i int) error {
			return c.serve(ctx, upsertH, kids[4], "", fmt.Sprintf(`{"custom_attributes":{"size":"X%d"}}`, i))
		}, map[string]int{"GetItem": 2, "TransactWriteItems": 1}},
		{"PATCH /products/{sku} group", c.call(upsertH, "C", "", `{"brand":"B"}`), map[string]int{"GetItem": 1, "PutItem": 1, "Query": 1}},
		{"DELETE /products/{sku} stand-alone", func(ctx context.Context, i int) error {
			sku := fmt.Sprintf("GONE-%d", i)
			if err := child(sku); err != nil {
				return err
			}
			return c.serve(ctx, deleteH, sku, "", "")
		}, map[string]int{"GetItem": 1, "TransactWriteItems": 1}},
		{"DELETE /products/{sku} child", func(ctx context.Context, i int) error {
			sku := fmt.Sprintf("DC-%d", i)
			if err := group(sku); err != nil {
				return err
			}
			return c.serve(ctx, deleteH, sku+"-S", "", "")
		}, map[string]int{"GetItem": 2, "TransactWriteItems": 1}},
		{"PUT /variation_groups/{sku} create", func(ctx context.Context, i int) error {
			sku := fmt.Sprintf("NG-%d", i)
			if err := child(sku + "-S"); err != nil {
				return err
			}
			return c.serve(ctx, putGroupH, sku, "", `{"name":"g","child_skus":["`+sku+`-S"],"variation_attributes":["size"]}`)
		}, map[string]int{"GetItem": 1, "BatchGetItem": 1, "TransactWriteItems": 1}},
		{"PUT /variation_groups/{sku} rename (99 children)", func(ctx context.Context, i int) error {
			body, err := json.Marshal(groupBody(fmt.Sprintf("C %d", i), kids...))
			if err != nil {
				return err
			}
			return c.serve(ctx, putGroupH, "C", "", string(body))
		}, map[string]int{"GetItem": 1, "BatchGetItem": 1, "PutItem": 1}},
		{"DELETE /variation_groups/{sku}", func(ctx context.Context, i int) error {
			sku := fmt.Sprintf("DG-%d", i)
			if err := group(sku); err != nil {
				return err
			}
			return c.serve(ctx, deleteGrpH, sku, "", "")
		}, map[string]int{"GetItem": 1, "BatchGetItem": 1, "TransactWriteItems": 1}},
	}
}

// TestCost checks each endpoint's DynamoDB calls against its budget:
// GET /products/{sku} is one read (and one Query of a group's children), a
// page of GET /products one Query (and one small read of where it starts),
// a product's creation one write call (with its count), a write of the
// item alone one conditional write.
func TestCost(t *testing.T) {
	t.Parallel()
	testenv.CheckCosts(t, measured(costCases(t)))
}

// BenchmarkCost reports each endpoint's DynamoDB calls and capacity per
// call (make bench).
func BenchmarkCost(b *testing.B) { testenv.BenchCosts(b, measured(costCases(b))) }
