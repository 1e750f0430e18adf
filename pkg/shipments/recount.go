package shipments

import (
	"context"
	"fmt"
	"slices"

	"github.com/multisell/multisell/pkg/store"
)

// Recount sets the counts of the shipment lists, all shipments and those
// of each sync status, to their sizes (docs/operations.md): for an account
// whose shipments were written before the counts. It reads the shipments'
// partition once (strongly consistent, projected on each item's key and
// sync_status): a shipment without a sync_status is counted in none of
// the statuses, as the status filter reads the stored value. The counts
// are exact only while no shipment is made and no tracking result comes;
// running it again is harmless.
func (s Service) Recount(ctx context.Context, account string) error {
	items, err := s.Table.Project(ctx, store.PK(account, kindShipment), store.AttrSK, attrStatus)
	if err != nil {
		return fmt.Errorf("recount the shipments: %w", err)
	}
	want := store.Counts{shipmentsCount: int64(len(items))}
	for _, st := range statuses {
		want[statusCount(st)] = 0
	}
	for _, it := range items {
		if st := it.Text(attrStatus); slices.Contains(statuses, st) {
			want.Add(statusCount(st), 1)
		}
	}
	if err := s.Table.SetCounts(ctx, account, want); err != nil {
		return fmt.Errorf("recount the shipments: %w", err)
	}
	return nil
}
