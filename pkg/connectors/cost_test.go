package connectors

import "testing"

func TestBucketTakeN(t *testing.T) {
	t.Parallel()
	const now = 1_000_000
	tests := []struct {
		name     string
		b        bucket
		burst, n int
		wantTat  int64
		wantWait int64
	}{
		{"full bucket of 100, take 10", bucket{iv: 20}, 100, 10, now + 200, 0},
		{"90 taken of 100, take 10", bucket{tat: now + 1800, iv: 20}, 100, 10, now + 2000, 0},
		{"95 taken of 100, take 10: wait for 5", bucket{tat: now + 1900, iv: 20}, 100, 10, now + 1900, 100},
		{"empty, take 100: wait for all", bucket{tat: now + 2000, iv: 20}, 100, 100, now + 2000, 2000},
		{"take more than the bucket: a full bucket", bucket{tat: now + 20, iv: 20}, 100, 500, now + 20, 20},
		{"take 0 is 1", bucket{iv: 20}, 100, 0, now + 20, 0},
		{"n 1 is take", bucket{tat: now + 1000, iv: 1000}, 1, 1, now + 1000, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			gotTat, gotWait := tt.b.takeN(tt.burst, tt.n, now)
			if gotTat != tt.wantTat || gotWait != tt.wantWait {
				t.Errorf("takeN = (%d, %d), want (%d, %d)", gotTat-now, gotWait, tt.wantTat-now, tt.wantWait)
			}
		})
	}
}

// TestCostRate: takes of 10 points spaced as the waits say restore at the stated rate.
func TestCostRate(t *testing.T) {
	t.Parallel()
	const now, burst, n, cost = 0, 100, 40, 10
	b := bucket{iv: interval(50)}
	ms := int64(now)
	for range n {
		tat, wait := b.takeN(burst, cost, ms)
		if wait > 0 {
			ms += wait
			tat, _ = b.takeN(burst, cost, ms)
		}
		b.tat = tat
	}
	// 400 points from a full bucket of 100 at 50/s (with the margin): 300 restored.
	got, want := ms, int64((n*cost-burst)*interval(50))
	if got < want-int64(cost)*interval(50) || got > want {
		t.Errorf("40 takes of 10 ended at %d ms, want about %d", got, want)
	}
}

func TestReported(t *testing.T) {
	t.Parallel()
	const now = 1_000_000
	tests := []struct {
		name   string
		burst  int
		st     CostStatus
		want   bucket
		wantOK bool
	}{
		{"full", 100, CostStatus{Maximum: 100, Available: 100, Restore: 50}, bucket{tat: now, iv: 22}, true},
		{"half", 100, CostStatus{Maximum: 100, Available: 50, Restore: 50}, bucket{tat: now + 1100, iv: 22}, true},
		{"empty", 100, CostStatus{Maximum: 100, Available: 0, Restore: 50}, bucket{tat: now + 2200, iv: 22}, true},
		{"more than the burst: full", 100, CostStatus{Maximum: 1000, Available: 900, Restore: 50}, bucket{tat: now, iv: 22}, true},
		{"negative: empty", 100, CostStatus{Maximum: 100, Available: -5, Restore: 50}, bucket{tat: now + 2200, iv: 22}, true},
		{"no rate", 100, CostStatus{Maximum: 100, Available: 5}, bucket{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := reported(tt.burst, tt.st, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("reported = %+v %v, want %+v %v", got, ok, tt.want, tt.wantOK)
			}
			if ok {
				level := float64(tt.burst) - float64(max(got.tat-now, 0))/float64(got.iv)
				if want := min(max(tt.st.Available, 0), float64(tt.burst)); level != want {
					t.Errorf("level %v, want %v", level, want)
				}
			}
		})
	}
}
