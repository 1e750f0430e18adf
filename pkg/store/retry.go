package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// Retry runs op until it returns an error retryable does not accept (or
// none), at most attempts times, with a short jittered wait between: the
// loop of a read-modify-write whose conditional write lost a race.
func Retry(ctx context.Context, attempts int, retryable func(error) bool, op func() error) error {
	var err error
	for i := 1; i <= attempts; i++ {
		if err = op(); err == nil || !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.IntN(5*i)+1) * time.Millisecond):
		}
	}
	return fmt.Errorf("gave up after %d attempts: %w", attempts, err)
}
