package push

import (
	"fmt"
	"testing"
)

func TestChannelGroup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		listings         int
		wantLanesAtMost  int
		wantLanesAtLeast int
	}{
		{"one listing, one lane", 1, 1, 1},
		{"many listings fill the lanes", 200, Lanes, Lanes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lanes := map[string]bool{}
			for i := range tt.listings {
				listing := fmt.Sprintf("lst-%d", i)
				g := ChannelGroup("acct", "ch", listing)
				if again := ChannelGroup("acct", "ch", listing); again != g {
					t.Errorf("ChannelGroup(%q) = %q, then %q: want the same lane each time", listing, g, again)
				}
				if other := ChannelGroup("acct", "other", listing); other == g {
					t.Errorf("ChannelGroup(%q) of two channels = %q both: want each channel its own", listing, g)
				}
				lanes[g] = true
			}
			if got := len(lanes); got < tt.wantLanesAtLeast || got > tt.wantLanesAtMost {
				t.Errorf("%d listings in %d groups, want %d to %d", tt.listings, got, tt.wantLanesAtLeast, tt.wantLanesAtMost)
			}
		})
	}
}
