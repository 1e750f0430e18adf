package push

import (
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	t.Parallel()
	cases := []struct {
		base    time.Duration
		attempt int64
		want    time.Duration
	}{
		{30 * time.Second, 1, 30 * time.Second}, {30 * time.Second, 2, time.Minute}, {30 * time.Second, 3, 2 * time.Minute},
		{30 * time.Second, 6, 15 * time.Minute}, {30 * time.Second, 60, 15 * time.Minute}, {0, 1, DefaultRetryBase},
		{time.Second, 0, time.Second},
	}
	for _, tc := range cases {
		if got := Backoff(tc.base, tc.attempt); got != tc.want {
			t.Errorf("Backoff(%v, %d) = %v, want %v", tc.base, tc.attempt, got, tc.want)
		}
	}
}
