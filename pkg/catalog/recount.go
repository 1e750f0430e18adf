package catalog

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/store"
)

// Recount sets the counts of the catalog's lists, every product (groups
// included) and the variation groups, to their sizes (docs/operations.md):
// for an account whose products were written before the counts. It reads
// the products' partition once (strongly consistent, projected on each
// item's SKU, GSI1 key and count due): a group is an item on the groups'
// GSI1 partition, which GET /variation_groups reads. Counts due on
// products (countDue) are settled first, so that channel sync does not add
// them to the recounted counts. The counts are exact only while the
// catalog does not change; running it again is harmless.
func (s Service) Recount(ctx context.Context, account string) error {
	items, err := s.Table.Project(ctx, productsPK(account), store.AttrSK, store.AttrGSI1PK, attrCountDue)
	if err != nil {
		return fmt.Errorf("recount the products: %w", err)
	}
	want := store.Counts{productsCount: int64(len(items)), groupsCount: 0}
	var due []string
	for _, it := range items {
		if it.Text(store.AttrGSI1PK) == store.PK(account, kindGroups) {
			want.Add(groupsCount, 1)
		}
		if it.Has(attrCountDue) {
			due = append(due, it.Text(store.AttrSK))
		}
	}
	if err := s.SettleCounts(ctx, account, due); err != nil {
		return err
	}
	if err := s.Table.SetCounts(ctx, account, want); err != nil {
		return fmt.Errorf("recount the products: %w", err)
	}
	return nil
}
