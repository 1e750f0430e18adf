package inventory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// fixture is one test's account on the shared local stack.
type fixture struct {
	t    testing.TB
	env  *testenv.Env
	acct testenv.Account
	c    *testenv.Client
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	return &fixture{t: t, env: env, acct: acct, c: env.Client(t, acct)}
}

// warehouse creates a warehouse through the API and returns its uuid.
func (f *fixture) warehouse(name string) string {
	f.t.Helper()
	r := f.c.Do(http.MethodPost, "/warehouses", map[string]any{"warehouse": map[string]any{"name": name}})
	if r.Status != http.StatusOK {
		f.t.Fatalf("create warehouse: %d %s", r.Status, r.Body)
	}
	var out struct {
		UUID string `json:"warehouse_uuid"`
	}
	r.JSON(f.t, &out)
	return out.UUID
}

// product upserts a product of the account through the catalog service.
func (f *fixture) product(sku, body string) {
	f.t.Helper()
	obj, err := lenient.DecodeObject(body)
	if err != nil {
		f.t.Fatalf("upsert product %s: %v", sku, err)
	}
	in, err := catalog.ParseProduct(obj)
	if err != nil {
		f.t.Fatalf("upsert product %s: %v", sku, err)
	}
	if _, err := f.env.Deps.Catalog().Upsert(context.Background(), f.acct.ID, sku, in); err != nil {
		f.t.Fatalf("upsert product %s: %v", sku, err)
	}
}

// record is a JSON item for a write body.
func record(sku, wh string, qty int, extra ...string) string {
	return fmt.Sprintf(`{"sku":%s,"warehouse_uuid":%s,"on_hand":%d%s}`, quoteJSON(sku), quoteJSON(wh), qty, strings.Join(extra, ""))
}

// body wraps items into {"inventory":[...]}.
func body(items ...string) string { return `{"inventory":[` + strings.Join(items, ",") + `]}` }

// create POSTs the items and expects 201.
func (f *fixture) create(items ...string) {
	f.t.Helper()
	if r := f.c.Do(http.MethodPost, "/inventory", body(items...)); r.Status != http.StatusCreated {
		f.t.Fatalf("POST /inventory: %d %s", r.Status, r.Body)
	}
}

// list GETs one page of /inventory with the raw query.
func (f *fixture) list(query string) []inventory.Inventory {
	f.t.Helper()
	r := f.c.Do(http.MethodGet, "/inventory?"+query, nil)
	if r.Status != http.StatusOK {
		f.t.Fatalf("GET /inventory?%s: %d %s", query, r.Status, r.Body)
	}
	var out []inventory.Inventory
	r.JSON(f.t, &out)
	return out
}

// get returns the record (sku, wh) from the API, failing if it is absent.
func (f *fixture) get(sku, wh string) inventory.Inventory {
	f.t.Helper()
	recs := f.list("sku=" + url.QueryEscape(sku) + "&warehouse_uuid=" + wh)
	if len(recs) != 1 {
		f.t.Fatalf("record %q@%s: got %d records", sku, wh, len(recs))
	}
	return recs[0]
}

// adjust sends PUT or PATCH /inventory, expects 200 and returns the
// request id.
func (f *fixture) adjust(method, b string) string {
	f.t.Helper()
	r := f.c.Do(method, "/inventory", b)
	if r.Status != http.StatusOK {
		f.t.Fatalf("%s /inventory: %d %s", method, r.Status, r.Body)
	}
	var out struct {
		Body      string `json:"body"`
		RequestID string `json:"request_id"`
	}
	r.JSON(f.t, &out)
	if out.Body != "Request received" || out.RequestID == "" {
		f.t.Fatalf("%s /inventory answered %s", method, r.Body)
	}
	return out.RequestID
}

// status GETs the adjustment's status.
func (f *fixture) status(id string) inventory.Status {
	f.t.Helper()
	r := f.c.Do(http.MethodGet, "/inventory/adjustments/"+id, nil)
	if r.Status != http.StatusOK {
		f.t.Fatalf("GET adjustment %s: %d %s", id, r.Status, r.Body)
	}
	var st inventory.Status
	r.JSON(f.t, &st)
	return st
}

// applied waits until the consumer has applied the adjustment and returns
// its status.
func (f *fixture) applied(id string) inventory.Status {
	f.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := f.status(id)
		if st.Status == inventory.StatusApplied {
			return st
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("adjustment %s still %s", id, st.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// reserve moves qty of (sku, wh) to reserved as the orders domain does:
// the write of inventory's Reserve, committed.
func (f *fixture) reserve(sku, wh string, qty int) error {
	t := f.env.Deps.Table
	return t.Commit(context.Background(), []store.Write{f.env.Deps.Inventory().Reserve(f.acct.ID, sku, wh, qty)})
}

// check asserts the quantities of a record.
func check(t *testing.T, rec inventory.Inventory, onHand, reserved, available int64) {
	t.Helper()
	if rec.OnHand != onHand || rec.Reserved != reserved || rec.Available != available {
		t.Errorf("%s@%s: on_hand/reserved/available = %d/%d/%d, want %d/%d/%d", rec.SKU, rec.Warehouse,
			rec.OnHand, rec.Reserved, rec.Available, onHand, reserved, available)
	}
}

// errorMessage decodes {"error": "..."}.
func errorMessage(t *testing.T, r *testenv.Response) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	r.JSON(t, &e)
	return e.Error
}

// quoteJSON is s as a JSON string.
func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// consumer is the adjustments consumer over the fixture's stack, telling
// stock (when not nil) what changed.
func (f *fixture) consumer(stock inventory.StockListener) inventory.Handlers {
	cfg, sqs := f.env.Config, f.env.Deps.SQS
	return inventory.Handlers{Service: inventory.Service{
		Table:       f.env.Deps.Table,
		Warehouses:  f.env.Deps.Warehouses(),
		Catalog:     f.env.Deps.Catalog(),
		Adjustments: queue.Sender{Client: sqs, URL: cfg.AdjustmentsQueueURL},
		Rejects:     queue.Sender{Client: sqs, URL: cfg.AdjustmentsDLQURL},
		Stock:       stock,
	}}
}
