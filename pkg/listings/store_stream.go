package listings

import (
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/store"
)

// listingChange is what a stream record of a listing asks of channel sync.
type listingChange struct {
	rec *record
	// recompute: the listing is new, its link or rules changed, or the
	// merchant took it back from the channel that kept its quantity.
	recompute bool
	// send: a version (or a retry of one) is to be pushed to the channel.
	send bool
	// retry: a push just failed; schedule the next attempt.
	retry bool
	// hold: a hold just started (pace); schedule its end.
	hold bool
}

// decodeListingChange decodes a stream record of a listing; ok is false for
// other items and removals.
func decodeListingChange(c store.Change) (listingChange, bool, error) {
	if c.Kind != kind || !c.New.Exists() {
		return listingChange{}, false, nil
	}
	r, err := decode(c.New)
	if err != nil {
		return listingChange{}, false, err
	}
	lc := listingChange{rec: r, recompute: true}
	old := &record{} // a new listing: nothing pushed before
	if c.Old.Exists() {
		if old, err = decode(c.Old); err != nil {
			return listingChange{}, false, err
		}
		lc.recompute = !store.Same(c.Old, c.New, "sku") || !store.Same(c.Old, c.New, attrRules) ||
			(old.ChannelOff != nil && r.ChannelOff == nil)
	}
	lc.send, lc.retry = push.Due(old.PushState(), r.PushState())
	released := old.Held > 0 && r.Held == 0 && r.SyncStatus == StatusPending
	lc.send = (lc.send || released) && r.Held == 0 && r.Quantity != nil
	lc.hold = r.Held > 0 && r.Held != old.Held
	return lc, lc.recompute || lc.send || lc.retry || lc.hold, nil
}
