package inventory

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// applyConcurrency is how many items of one adjustment are applied at once.
const applyConcurrency = 10

// Apply applies a queued adjustment exactly once, however often it is
// delivered, and returns the result of each item in order (none for a
// request given up: see Enqueue).
//
// The request is first claimed (one conditional UpdateItem of its status
// item, which also tells a delivery of a request already applied or given
// up). Each item is then one conditional UpdateItem that sets the quantity
// and keeps available = on_hand - reserved in the same expression, and
// records the request id on the record: a redelivery finds it there and
// changes nothing (its result is read from the record), and a request older
// than the one that last set the record is superseded there (a request
// re-sent late never undoes a newer one). PUT creates a missing record,
// PATCH skips it. Once every item is applied, the results are stored as the
// request's status with each item's history in one transaction
// (storeApplied). So a 50-item adjustment of existing records costs 52
// calls (the claim, 50 updates, one transaction), and a failure or a crash
// part way leaves each item applied or not, never half-applied, and the
// request queued until a delivery completes it (and writes the histories a
// crash missed).
func (s Service) Apply(ctx context.Context, adj Adjustment) ([]Result, error) {
	return s.apply(ctx, adj, nil)
}

// apply is Apply that also tells the results to tell (when not nil): while
// they are stored for an adjustment it applies, after the claim for one
// already applied, so a delivery's listener never waits on the status
// write. An error of tell fails the delivery as a failure to store does.
func (s Service) apply(ctx context.Context, adj Adjustment, tell func(context.Context, Adjustment, []Result) error) ([]Result, error) {
	t := s.Table
	now := time.Now()
	st, done, _, err := claim(ctx, t, adj.Account, adj.RequestID, now)
	if err != nil {
		return nil, err
	}
	if done {
		if tell != nil && st.Status == StatusApplied {
			return st.Items, tell(ctx, adj, st.Items)
		}
		return st.Items, nil
	}
	results := make([]Result, len(adj.Items))
	hist := &histories{}
	// The items name distinct records (duplicates are refused up front), so
	// they are applied concurrently, a few at a time.
	err = store.Each(len(adj.Items), applyConcurrency, func(i int) (err error) {
		results[i], err = s.applyItem(ctx, adj, adj.Items[i], isotime.Format(now), hist)
		return err
	})
	if err != nil {
		return nil, err
	}
	var (
		told error
		wg   sync.WaitGroup
	)
	if tell != nil {
		wg.Go(func() { told = tell(ctx, adj, results) })
	}
	stored := storeApplied(ctx, t, adj.Account, Status{RequestID: adj.RequestID, Status: StatusApplied, Items: results}, now, hist.writes)
	wg.Wait()
	if err := errors.Join(stored, told); err != nil {
		return nil, err
	}
	return results, nil
}
