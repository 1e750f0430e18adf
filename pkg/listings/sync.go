package listings

import (
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/push"
)

// Stock is the available quantity of one SKU per warehouse, archived
// warehouses left out.
type Stock map[string]int64

// want is what the listing should show: its status and, when it is
// synced at all, its quantity. The listing's overrides replace the
// channel's rules field by field.
func want(r *record, ch channels.Channel, stock Stock) (string, *int64) {
	if !r.linked() {
		return StatusUnlinked, nil
	}
	rules := r.InventoryRules.Apply(ch.InventoryRules)
	if !ch.Syncs() || !rules.Sync || r.ChannelOff != nil {
		return StatusOff, nil
	}
	q := rules.Quantity(stock)
	return StatusPending, &q
}

// decide moves r to what it should show at now and reports whether that
// is a change. A new wanted quantity (or a listing that starts syncing) is
// a new version, pending until the connector confirms it; turning off or
// unlinked is a new version too, so a late result of the older one changes
// nothing. A listing already showing the wanted quantity is left as it is.
func decide(r *record, ch channels.Channel, stock Stock, now string) bool {
	status, q := want(r, ch, stock)
	switch {
	case q != nil && r.Version > 0 && r.Quantity != nil && *r.Quantity == *q && push.Active(r.SyncStatus):
		return false
	case q == nil && r.SyncStatus == status && r.Quantity == nil:
		return false
	}
	push.Next(r, status)
	r.Quantity, r.QuantityAt = q, now
	return true
}

// DefaultPushInterval is the least time between two pushes of a listing
// when the Service sets none: the first change goes at once, the changes
// within the interval after it fold into one push at its end.
const DefaultPushInterval = time.Second

// maxStreak bounds the doublings of the interval: a listing changing
// without pause is pushed at least every 2^maxStreak intervals (8 s).
const maxStreak = 3

// interval is the least time between r's last push and its next: every,
// doubled for each hold in a row (at most maxStreak times), so a long burst
// of changes costs a handful of pushes while a quiet listing's next change
// goes at once.
func interval(r *record, every time.Duration) time.Duration {
	return every << min(max(r.Streak, 0), maxStreak)
}

// lostHold is how long past its end a hold may stay on before a new
// version treats it as lost (its release message never came back) and
// goes at once.
const lostHold = time.Minute

// pace applies the minimum interval between pushes to r, whose version
// decide just moved at at, and reports whether the version goes at once.
// A version to push goes at once when the last one that did is every or
// more ago (it becomes the last, and the streak starts over); within that
// it starts a hold (Held: the stream then schedules the hold's end, after
// the listing's interval, whose release sends the version current then),
// and a version decided while a hold is on folds into it. So a listing
// changing without pause is pushed after 1, 2, 4, then every 8 intervals.
// A version that pushes nothing (off, unlinked) ends the hold.
func pace(r *record, at time.Time, every time.Duration) bool {
	if r.SyncStatus != StatusPending || r.Quantity == nil {
		r.Held = 0
		return false
	}
	ms := at.UnixMilli()
	switch {
	case r.Held > 0 && ms < r.SentAt+interval(r, every).Milliseconds()+lostHold.Milliseconds():
		return false
	case r.Held == 0 && r.SentAt > 0 && ms < r.SentAt+every.Milliseconds():
		r.Held = r.Version
		return false
	}
	r.Held, r.SentAt, r.Streak = 0, ms, 0
	return true
}

// holdLeft is how long r's hold has left at at (at most its interval).
func holdLeft(r *record, at time.Time, every time.Duration) time.Duration {
	gap := interval(r, every)
	left := time.Duration(r.SentAt-at.UnixMilli())*time.Millisecond + gap
	return min(max(left, 0), gap)
}

// release ends r's hold started at version held (a listing.retry of
// attempt 0, when the hold's time is up): the version current now is sent,
// counts as the last one that went, and doubles the interval before the
// next (Streak). push.ErrStale when r is not in
// that hold (released already, ended by a version pushing nothing, or a
// later hold).
func release(r *record, held int64, at time.Time) error {
	if r.Held == 0 || r.Held != held || r.SyncStatus != StatusPending {
		return push.ErrStale
	}
	r.Held, r.SentAt = 0, at.UnixMilli()
	r.Streak++
	return nil
}
