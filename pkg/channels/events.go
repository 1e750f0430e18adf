package channels

import (
	"context"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/store"
)

// EventKinds are the item kinds whose changes EventOf reads.
func (Service) EventKinds() []string { return []string{kind} }

// EventOf is the channels' source of the event feed: a channel whose state
// becomes disconnected (DELETE /channels/{uuid}, or the runtime after the
// channel refused its token three times) is channel.disconnected, with the
// channel as GET /channels returns it (its connection's last_error says
// why). Its connection is read as it is now: one Query.
func (s Service) EventOf(ctx context.Context, c store.Change) (events.Draft, bool, error) {
	if c.Kind != kind || isStatusSK(c.SK) || c.New.Text(attrState) != StateDisconnected ||
		!c.Old.Exists() || c.Old.Text(attrState) == StateDisconnected {
		return events.Draft{}, false, nil
	}
	var ch Channel
	if err := decode(c.New, &ch); err != nil {
		return events.Draft{}, false, err
	}
	now, err := getWithStatus(ctx, s.Table, c.Account, ch.UUID)
	if err != nil {
		return events.Draft{}, false, err
	}
	ch.Connection = now.Connection
	return events.Draft{Type: events.ChannelDisconnected, Data: ch}, true, nil
}
