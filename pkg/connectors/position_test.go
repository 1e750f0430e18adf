package connectors

import (
	"testing"
	"time"
)

func TestQuietCursor(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	at := func(s int) time.Time { return base.Add(time.Duration(s) * time.Second) }
	// pages of update times; each but the last had a next page.
	walk := func(pages ...[]int) newest {
		var n newest
		for i, p := range pages {
			times := make([]time.Time, len(p))
			for j, s := range p {
				times[j] = at(s)
			}
			n.add(times, i < len(pages)-1)
		}
		return n
	}
	tests := []struct {
		name    string
		stored  time.Time
		maxSeen time.Time
		n       newest
		want    time.Time
	}{
		{"one page: the overlap", at(0), at(100), walk([]int{90, 100}), at(100 - 60)},
		{"nothing seen: the stored cursor", at(0), time.Time{}, walk([]int{}), at(0)},
		{"pages within the overlap: a page of the newest left", at(0), at(100),
			walk([]int{91, 92, 93}, []int{94, 95, 96}, []int{100}), at(96)},
		{"pages older than the overlap: the overlap", at(0), at(100),
			walk([]int{1, 2, 3}, []int{4, 5, 6}, []int{100}), at(100 - 60)},
		{"never before the stored cursor", at(99), at(100), walk([]int{99, 100}), at(99)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := quietCursor(tt.stored, tt.maxSeen, time.Minute, tt.n); !got.Equal(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
