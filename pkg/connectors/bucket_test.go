package connectors

import (
	"testing"
	"time"
)

func TestBucketTake(t *testing.T) {
	t.Parallel()
	const now = 1_000_000
	tests := []struct {
		name     string
		b        bucket
		burst    int
		wantTat  int64
		wantWait int64
	}{
		{"new bucket", bucket{iv: 1000}, 1, now + 1000, 0},
		{"idle long ago", bucket{tat: now - 60_000, iv: 1000}, 1, now + 1000, 0},
		{"just taken, burst 1", bucket{tat: now + 1000, iv: 1000}, 1, now + 1000, 1000},
		{"half refilled, burst 1", bucket{tat: now + 400, iv: 1000}, 1, now + 400, 400},
		{"burst 3, two taken", bucket{tat: now + 2000, iv: 1000}, 3, now + 3000, 0},
		{"burst 3, three taken", bucket{tat: now + 3000, iv: 1000}, 3, now + 3000, 1000},
		{"closed by a 429 for 10 s", bucket{tat: now + 10_000, iv: 500}, 1, now + 10_000, 10_000},
		{"burst 0 is 1", bucket{tat: now + 1, iv: 1000}, 0, now + 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			gotTat, gotWait := tt.b.take(tt.burst, now)
			if gotTat != tt.wantTat || gotWait != tt.wantWait {
				t.Errorf("take = (%d, %d), want (%d, %d)", gotTat-now, gotWait, tt.wantTat-now, tt.wantWait)
			}
		})
	}
}

// TestBucketRate: n takes spaced as the waits say last (n-burst) intervals: the rate holds.
func TestBucketRate(t *testing.T) {
	t.Parallel()
	for _, burst := range []int{1, 2, 5} {
		b := bucket{iv: interval(4)} // 4 per second
		now := int64(0)
		for range 20 {
			tat, wait := b.take(burst, now)
			now += wait
			if wait > 0 {
				tat, _ = b.take(burst, now)
			}
			b.tat = tat
		}
		if got, want := now, int64(20-burst)*interval(4); got != want {
			t.Errorf("burst %d: 20 takes over %d ms, want %d", burst, got, want)
		}
	}
}

func TestBucketBlocked(t *testing.T) {
	t.Parallel()
	b := bucket{iv: 1000}
	for _, burst := range []int{1, 3} {
		until := int64(50_000)
		b.tat = b.blocked(burst, until)
		if _, wait := b.take(burst, until-1); wait != 1 {
			t.Errorf("burst %d: a take 1 ms before the Retry-After waits %d ms, want 1", burst, wait)
		}
		if tat, wait := b.take(burst, until); wait != 0 || tat != b.tat+1000 {
			t.Errorf("burst %d: a take at the Retry-After = (%d, %d), want one token", burst, tat, wait)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2", now.Add(2 * time.Second), true},
		{" 0.5 ", now.Add(500 * time.Millisecond), true},
		{"Thu, 26 Nov 2026 12:00:30 GMT", now.Add(30 * time.Second), true},
		{"", time.Time{}, false},
		{"-1", time.Time{}, false},
		{"soon", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, ok := retryAfter(tt.in, now)
			if !got.Equal(tt.want) || ok != tt.ok {
				t.Errorf("retryAfter(%q) = %v, %v, want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestRateHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0.5", 2200, true}, {"1", 1100, true}, {"10.0", 110, true}, {"5000", 1, true},
		{"0", 0, false}, {"", 0, false}, {"fast", 0, false}, {"+Inf", 0, false},
	}
	for _, tt := range tests {
		got, ok := rateHeader(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("rateHeader(%q) = %d, %v, want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestNextCursor(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name            string
		stored, maxSeen time.Time
		overlap         time.Duration
		want            time.Time
	}{
		{"nothing seen keeps the cursor", base, time.Time{}, time.Minute, base},
		{"first poll", time.Time{}, base, 5 * time.Minute, base.Add(-5 * time.Minute)},
		{"moves forward by what was seen, less the overlap", base, base.Add(time.Hour), 5 * time.Minute, base.Add(55 * time.Minute)},
		{"never backwards", base, base.Add(time.Minute), 5 * time.Minute, base},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := nextCursor(tt.stored, tt.maxSeen, tt.overlap); !got.Equal(tt.want) {
				t.Errorf("nextCursor = %v, want %v", got, tt.want)
			}
		})
	}
}
