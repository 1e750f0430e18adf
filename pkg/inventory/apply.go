package inventory

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
)

// applyConcurrency is how many items of one adjustment are applied at once.
const applyConcurrency = 10

// Apply applies a queued adjustment exactly once, however often it is
// delivered, and returns the result of each item in order.
//
// Each item is one conditional UpdateItem that sets the quantity and keeps
// available = on_hand - reserved in the same expression, and records the
// request id on the record: a redelivery finds it there and changes nothing
// (its result is read from the record). PUT creates a missing record, PATCH
// skips it. Once every item is applied the results are stored as the
// request's status; a delivery that finds the status returns it at once. So
// a 50-item adjustment costs one GetItem and at most 51 writes, and a
// failure part way leaves each item applied or not, never half-applied.
func (s Service) Apply(ctx context.Context, adj Adjustment) ([]Result, error) {
	t := s.Table
	if st, found, err := getStatus(ctx, t, adj.Account, adj.RequestID); err != nil || found {
		return st.Items, err
	}
	now := time.Now()
	results := make([]Result, len(adj.Items))
	errs := make([]error, len(adj.Items))
	// The items name distinct records (duplicates are refused up front), so
	// they are applied concurrently, a few at a time.
	sem := make(chan struct{}, applyConcurrency)
	var wg sync.WaitGroup
	for i, it := range adj.Items {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			results[i], errs[i] = applyItem(ctx, t, adj, it, isotime.Format(now))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	st := Status{RequestID: adj.RequestID, Status: StatusApplied, Items: results}
	if err := putStatus(ctx, t, adj.Account, st, now); err != nil {
		return nil, err
	}
	return results, nil
}
