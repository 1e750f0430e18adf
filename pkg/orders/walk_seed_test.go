package orders_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/testenv"
)

// walkWorld is a seeded shop (seed: n orders of product "S") that also
// holds n more products and their n inventory records at the shop's
// warehouse, and the two gateways that take the pages of its lists.
type walkWorld struct {
	*seeded
	gws [2]*testenv.Gateway
}

// walkBatch is the records of one inventory.Service.Create (at most
// inventory.MaxItems).
const walkBatch = inventory.MaxItems

// productSKU is the SKU of seeded product i: zero-padded, so byte order is
// i's order (and all sort after "S").
func productSKU(i int) string { return fmt.Sprintf("p-%06d", i) }

// newWalkWorld seeds the shop's orders in bulk (seed), then its products
// through catalog.Service.Upsert and its records through
// inventory.Service.Create, by seedWorkers concurrent writers, and builds
// two gateways, each with its own authorizer cache, warmed outside any
// meter.
func newWalkWorld(tb testing.TB, n int) *walkWorld {
	tb.Helper()
	w := &walkWorld{seeded: seed(tb, n, false)}
	start, ctx := time.Now(), context.Background()
	inParallel(tb, n, func(i int) error {
		body, err := lenient.DecodeObject(`{"name":"Seeded product ` + productSKU(i) + ` with a name of a realistic length","custom_attributes":{"color":"red"}}`)
		if err != nil {
			return err
		}
		in, err := catalog.ParseProduct(body)
		if err != nil {
			return err
		}
		_, err = w.env.Deps.Catalog().Upsert(ctx, w.acct.ID, productSKU(i), in)
		return err
	})
	// No stock listener: the seeded orders stay as seeded.
	stock := w.env.Deps.Inventory()
	stock.Stock = nil
	inParallel(tb, (n+walkBatch-1)/walkBatch, func(b int) error {
		var items []inventory.Item
		for i := b * walkBatch; i < min(n, (b+1)*walkBatch); i++ {
			onHand := int64(5)
			items = append(items, inventory.Item{SKU: productSKU(i), Warehouse: w.wh, OnHand: &onHand})
		}
		return stock.Create(ctx, w.acct.ID, items)
	})
	for i := range w.gws {
		w.gws[i] = w.env.NewGateway(tb, gateway.Options{AuthCacheTTL: time.Hour}, nil)
		if rec := serveAs(ctx, w.gws[i], w.acct, http.MethodGet, "/channels"); rec.Code != http.StatusOK {
			tb.Fatalf("warm gateway %d: status %d", i, rec.Code)
		}
	}
	tb.Logf("seeded %d products and inventory records in %v", n, time.Since(start).Round(time.Millisecond))
	return w
}

// inParallel runs job(0) to job(n-1) on seedWorkers goroutines and fails
// tb with the first error.
func inParallel(tb testing.TB, n int, job func(i int) error) {
	tb.Helper()
	jobs := make(chan int)
	errs := make(chan error, seedWorkers)
	var wg sync.WaitGroup
	for range seedWorkers {
		wg.Go(func() {
			for i := range jobs {
				if err := job(i); err != nil {
					errs <- err
					for range jobs { // drain, so the producer ends
					}
					return
				}
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		tb.Fatalf("seed: %v", err)
	}
}

// serveAs sends one request without a body as acct through g, in-process,
// so that ctx (and the meter it may carry) reaches the function.
func serveAs(ctx context.Context, g *testenv.Gateway, acct testenv.Account, method, path string) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(ctx, method, "/"+g.Stage()+path, bytes.NewReader(nil))
	req.Header.Set("Authorization", testenv.BasicAuth(acct))
	rec := httptest.NewRecorder()
	g.ServeHTTP(rec, req)
	return rec
}
