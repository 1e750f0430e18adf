package listings

import (
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
