package connectorstest

import (
	"context"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// Connected is a channel connected on a fixture's account.
type Connected struct {
	F       *orderstest.Fixture
	Channel string
}

// WantOwnOrder polls each channel (a slot of its own each time: a slot is polled once) until
// its account has imported one order, and checks that the order is of that channel: one
// marketplace account connected on several multisell accounts imports into each account's
// own channel only (docs/connectors.md, "One marketplace account, one channel").
func WantOwnOrder(t *testing.T, chs ...Connected) {
	t.Helper()
	slot := time.Now()
	for _, c := range chs {
		testenv.WaitFor(t, func() bool {
			slot = slot.Add(connectors.PollEvery)
			if err := c.F.Env.Deps.Connectors().Enqueue(context.Background(), connectors.ChannelRef{Account: c.F.Acct.ID, UUID: c.Channel}, slot); err != nil {
				t.Fatal(err)
			}
			return len(c.F.List("/orders")) == 1
		}, "the order imported on channel "+c.Channel)
		if got := c.F.List("/orders"); len(got) != 1 || got[0].ChannelUUID != c.Channel {
			t.Errorf("account %s: orders %+v, want one of channel %s", c.F.Acct.ID, got, c.Channel)
		}
	}
}
