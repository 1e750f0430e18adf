package store_test

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/multisell/multisell/pkg/store"
)

func TestEach(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	tests := []struct {
		name           string
		n, parallel    int
		failAt         int // -1: none
		wantErr        bool
		wantMostAtOnce int
	}{
		{"none", 0, 4, -1, false, 0},
		{"all run", 20, 4, -1, false, 4},
		{"one at a time", 5, 1, -1, false, 1},
		{"zero parallel is one", 3, 0, -1, false, 1},
		{"an error is returned, the others still run", 10, 3, 7, true, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var ran, now, most atomic.Int64
			err := store.Each(tt.n, tt.parallel, func(i int) error {
				n := now.Add(1)
				defer now.Add(-1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				ran.Add(1)
				if i == tt.failAt {
					return boom
				}
				return nil
			})
			if got := errors.Is(err, boom); got != tt.wantErr {
				t.Errorf("error %v, want an error %v", err, tt.wantErr)
			}
			if got := ran.Load(); got != int64(tt.n) {
				t.Errorf("ran %d, want %d", got, tt.n)
			}
			if got := most.Load(); got > int64(max(tt.wantMostAtOnce, 0)) {
				t.Errorf("%d at once, want at most %d", got, tt.wantMostAtOnce)
			}
		})
	}
}
