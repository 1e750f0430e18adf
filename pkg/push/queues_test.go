package push

import "testing"

func TestChannelGroup(t *testing.T) {
	t.Parallel()
	lanes := map[string]bool{}
	for _, listing := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		g := ChannelGroup("acct", "ch", listing)
		if again := ChannelGroup("acct", "ch", listing); again != g {
			t.Errorf("ChannelGroup(%q) = %q, then %q: want the same lane each time", listing, g, again)
		}
		if other := ChannelGroup("acct", "other", listing); other == g {
			t.Errorf("ChannelGroup(%q) of two channels = %q both: want each channel its own", listing, g)
		}
		lanes[g] = true
	}
	if got, want := len(lanes), Lanes; got != want {
		t.Errorf("12 listings of one channel in %d groups, want %d (Lanes)", got, want)
	}
}
