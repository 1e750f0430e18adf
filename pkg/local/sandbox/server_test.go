package sandbox

import (
	"testing"
	"time"
)

// TestAdmit: the published limit per seller and operation, with its tolerance, and the
// injected faults before it.
func TestAdmit(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	type call struct {
		seller string
		at     time.Duration
	}
	tests := []struct {
		name   string
		setup  func(s *Server)
		calls  []call
		want   []int
		wantOv int
	}{
		{"1/s holds, with jitter", func(s *Server) { s.SetLimit("op", 1, 1) },
			[]call{{"a", 0}, {"a", 300 * time.Millisecond}, {"a", 2 * time.Second}, {"a", 2100 * time.Millisecond}, {"a", 2200 * time.Millisecond}},
			[]int{0, 0, 0, 0, 429}, 1},
		{"twice the rate", func(s *Server) { s.SetLimit("op", 1, 1) },
			[]call{{"a", 0}, {"a", 500 * time.Millisecond}, {"a", time.Second}, {"a", 1500 * time.Millisecond}, {"a", 2 * time.Second}},
			[]int{0, 0, 0, 429, 0}, 1},
		{"per seller", func(s *Server) { s.SetLimit("op", 1, 1) },
			[]call{{"a", 0}, {"b", 0}, {"a", 10 * time.Millisecond}, {"a", 20 * time.Millisecond}},
			[]int{0, 0, 0, 429}, 1},
		{"burst", func(s *Server) { s.SetLimit("op", 1, 3) },
			[]call{{"a", 0}, {"a", 0}, {"a", 0}, {"a", 0}, {"a", 0}},
			[]int{0, 0, 0, 0, 429}, 1},
		{"faults first", func(s *Server) { s.FailNext("op", 1); s.ThrottleNext("op", 1, 0) },
			[]call{{"a", 0}, {"a", 0}, {"a", 0}},
			[]int{500, 429, 0}, 0},
		{"no limit", func(*Server) {}, []call{{"a", 0}, {"a", 0}}, []int{0, 0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewServer()
			tt.setup(s)
			var got []int
			for _, c := range tt.calls {
				status, _, _ := s.admit("op", c.seller, t0.Add(c.at))
				got = append(got, status)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("got %v, want %v", got, tt.want)
					break
				}
			}
			if s.Over("op") != tt.wantOv || s.Calls("op") != len(tt.calls) {
				t.Errorf("over %d, calls %d; want %d, %d", s.Over("op"), s.Calls("op"), tt.wantOv, len(tt.calls))
			}
		})
	}
}
