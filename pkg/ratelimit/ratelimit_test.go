package ratelimit

import (
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/api"
)

func TestQuota(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 10, 0, 45, 0, time.UTC) // 15 s left in the minute
	cases := []struct {
		name           string
		allowed        bool
		second, minute int
		want           api.Quota
	}{
		{"first of the minute: the second is tighter", true, 1, 1, api.Quota{Allowed: true, Limit: 2, Remaining: 1, Reset: 1}},
		{"second used up", true, 2, 10, api.Quota{Allowed: true, Limit: 2, Remaining: 0, Reset: 1}},
		{"a tie reports the minute", true, 1, 39, api.Quota{Allowed: true, Limit: 40, Remaining: 1, Reset: 15}},
		{"last of the minute", true, 1, 40, api.Quota{Allowed: true, Limit: 40, Remaining: 0, Reset: 15}},
		{"refused by the second", false, 2, 7, api.Quota{Limit: 2, Remaining: 0, Reset: 1}},
		{"refused by the minute", false, 0, 40, api.Quota{Limit: 40, Remaining: 0, Reset: 15}},
		{"refused by both", false, 2, 40, api.Quota{Limit: 40, Remaining: 0, Reset: 15}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Quota(now, c.allowed, c.second, 2, c.minute, 40); got != c.want {
				t.Errorf("Quota(allowed %v, second %d, minute %d) = %+v, want %+v", c.allowed, c.second, c.minute, got, c.want)
			}
		})
	}
}
