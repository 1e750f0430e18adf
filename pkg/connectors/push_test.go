package connectors

import (
	"testing"
	"time"
)

// TestBatchWait: a channel alone in its batch waits up to the batch's wait for its limits; one
// sharing the batch with others waits at most SharedPushWait, so it never holds their lanes
// for its own limits; the runtime's own pushes (0: each call up to MaxWait) are left alone.
func TestBatchWait(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		wait     time.Duration
		channels int
		want     time.Duration
	}{
		{"one channel", PushWait, 1, PushWait},
		{"two channels", PushWait, 2, SharedPushWait},
		{"many channels", PushWait, 10, SharedPushWait},
		{"shorter than the shared wait", 50 * time.Millisecond, 3, 50 * time.Millisecond},
		{"up to MaxWait, shared", 0, 3, 0},
		{"no channel", PushWait, 0, PushWait},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := batchWait(tt.wait, tt.channels); got != tt.want {
				t.Errorf("batchWait(%v, %d) = %v, want %v", tt.wait, tt.channels, got, tt.want)
			}
		})
	}
}
