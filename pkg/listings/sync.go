package listings

import (
	"github.com/multisell/multisell/pkg/channels"
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
	if !ch.Syncs() || !rules.Sync {
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
	case q != nil && r.Version > 0 && r.Quantity != nil && *r.Quantity == *q && syncing(r.SyncStatus):
		return false
	case q == nil && r.SyncStatus == status && r.Quantity == nil:
		return false
	}
	r.Version++
	r.SyncStatus, r.Quantity, r.QuantityAt = status, q, now
	r.SyncError, r.Push, r.Attempts = nil, 0, 0
	return true
}

// syncing reports whether a status is one of a listing whose quantity is
// being pushed.
func syncing(status string) bool {
	return status == StatusPending || status == StatusSynced || status == StatusFailed
}
