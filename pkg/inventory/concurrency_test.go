package inventory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"
)

// TestConcurrentAdjustAndReserve runs adjustments (on_hand and available)
// and reservations (reserve and release) on the same records from many
// goroutines. Afterwards every record keeps available = on_hand - reserved,
// reserved is exactly the net of the successful reservations, on_hand is
// the value of one adjustment's write, and a last adjustment is what is
// stored. Run it with -race.
func TestConcurrentAdjustAndReserve(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	skus := []string{"A", "B", "C"}
	for _, s := range skus {
		f.create(record(s, w, 1000))
	}
	ctx := context.Background()

	var mu sync.Mutex
	net := map[string]int64{}              // successful reservations minus releases, per SKU
	written := map[string]map[int64]bool{} // on_hand values adjustments wrote, per SKU
	for _, s := range skus {
		written[s] = map[int64]bool{1000: true}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(2)
		go func() { // adjuster
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(g), 1))
			for range 15 {
				sku, v := skus[rnd.IntN(len(skus))], int64(500+rnd.IntN(1000))
				it := inventory.Item{SKU: sku, Warehouse: w, OnHand: &v}
				if rnd.IntN(2) == 0 {
					it = inventory.Item{SKU: sku, Warehouse: w, Available: &v}
				}
				res, err := f.env.Deps.Inventory().Apply(ctx, inventory.Adjustment{RequestID: inventory.NewRequestID(f.acct.ID),
					Account: f.acct.ID, Method: inventory.MethodPatch, Items: []inventory.Item{it}})
				if err != nil {
					t.Error(err)
					return
				}
				if res[0].Result == inventory.ResultSuperseded {
					continue // a request made later has set the record already: this one wrote nothing
				}
				mu.Lock()
				written[sku][*res[0].OnHand] = true
				mu.Unlock()
			}
		}()
		go func() { // reserver
			defer wg.Done()
			rnd := rand.New(rand.NewPCG(uint64(g), 2))
			held := map[string]int{}
			for range 30 {
				sku, qty := skus[rnd.IntN(len(skus))], 1+rnd.IntN(20)
				if held[sku] > 0 && rnd.IntN(3) == 0 {
					qty = -held[sku]
				}
				if ok := reserveRetrying(t, f, sku, w, qty); ok {
					held[sku] += qty
					mu.Lock()
					net[sku] += int64(qty)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, s := range skus {
		rec := f.get(s, w)
		if rec.Available != rec.OnHand-rec.Reserved {
			t.Errorf("%s: available %d != on_hand %d - reserved %d", s, rec.Available, rec.OnHand, rec.Reserved)
		}
		if rec.Reserved != net[s] {
			t.Errorf("%s: reserved %d, successful reservations %d", s, rec.Reserved, net[s])
		}
		if !written[s][rec.OnHand] {
			t.Errorf("%s: on_hand %d is no adjustment's value", s, rec.OnHand)
		}
		// The last write wins and keeps what is reserved.
		last := int64(777)
		if _, err := f.env.Deps.Inventory().Apply(ctx, inventory.Adjustment{RequestID: inventory.NewRequestID(f.acct.ID),
			Account: f.acct.ID, Method: inventory.MethodPut,
			Items: []inventory.Item{{SKU: s, Warehouse: w, Available: &last}}}); err != nil {
			t.Fatal(err)
		}
		check(t, f.get(s, w), last+net[s], net[s], last)
	}
}

// reserveRetrying reserves (or releases) qty, retrying a transaction that
// only collided with another; it reports whether the reservation was made.
func reserveRetrying(t *testing.T, f *fixture, sku, wh string, qty int) bool {
	for range 20 {
		err := f.reserve(sku, wh, qty)
		switch {
		case err == nil:
			return true
		case store.TransactionConflict(err):
			continue
		case len(store.CancellationReasons(err)) > 0:
			return false // not enough available
		default:
			t.Error(fmt.Errorf("reserve %s %d: %w", sku, qty, err))
			return false
		}
	}
	t.Errorf("reserve %s %d: too many conflicts", sku, qty)
	return false
}
