package store

import (
	"errors"
	"sync"
)

// Each calls f(i) for every i from 0 to n-1, at most parallel at once, and returns their
// errors joined: the independent calls of one piece of work (a read per SKU, a write per
// record) side by side instead of one after another.
func Each(n, parallel int, f func(i int) error) error {
	errs := make([]error, n)
	sem := make(chan struct{}, max(parallel, 1))
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = f(i)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
