package ratelimit

import (
	"testing"
	"time"
)

func TestDecide(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 10, 0, 45, 0, time.UTC)
	if got := Decide(now, 40, 40); got != 15 {
		t.Errorf("minute exhausted: retry after %d, want 15", got)
	}
	if got := Decide(now, 3, 40); got != 1 {
		t.Errorf("second exhausted: retry after %d, want 1", got)
	}
}
