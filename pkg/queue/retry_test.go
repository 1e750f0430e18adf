package queue

import (
	"strings"
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

func TestGroup(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 1000)
	if g := Group("listing", "acct", long, long); len(g) > 128 || !strings.HasPrefix(g, "listing-") {
		t.Errorf("Group = %q (%d characters): SQS takes 128", g, len(g))
	}
	if Group("p", "a", "bc") == Group("p", "ab", "c") {
		t.Error("the parts' boundaries are lost")
	}
}
