package listings

import (
	"context"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/store"
)

// EventKinds are the item kinds whose changes EventOf reads.
func (Service) EventKinds() []string { return []string{kind} }

// EventOf is the listings' source of the event feed: a listing whose sync
// becomes failed is listing.sync_failed, with the listing as GET /listings
// returns it (its sync_error says why). Its retries failing again make no
// new event; a success and a later failure do.
func (s Service) EventOf(_ context.Context, c store.Change) (events.Draft, bool, error) {
	if c.Kind != kind || c.New.Text("sync_status") != StatusFailed || c.Old.Text("sync_status") == StatusFailed {
		return events.Draft{}, false, nil
	}
	r, err := decode(c.New)
	if err != nil {
		return events.Draft{}, false, err
	}
	return events.Draft{Type: events.ListingSyncFailed, Data: r.Listing}, true, nil
}
