package queue

import (
	"testing"
	"time"
)

func TestRetryWait(t *testing.T) {
	t.Parallel()
	tests := []struct {
		receive int
		want    time.Duration
	}{
		{0, time.Second}, {1, time.Second}, {2, 2 * time.Second}, {5, 5 * time.Second}, {6, MaxRetryWait}, {1000, MaxRetryWait},
	}
	for _, tt := range tests {
		if got := RetryWait(tt.receive); got != tt.want {
			t.Errorf("RetryWait(%d) = %v, want %v", tt.receive, got, tt.want)
		}
	}
}
