package orders

import (
	"context"
	"fmt"
)

// Reindex brings an account whose orders were written before the lists'
// counts and the GSI1 key of the order items up to date
// (docs/operations.md): every order item gets its GSI1 key (an UpdateItem
// conditioned on its version: an order saved meanwhile wrote it itself),
// the index items of the old list of all orders are deleted, and every
// count of the order lists is set to the number of orders in it. The counts
// are exact only if no order changes while it runs (imports and shipments
// paused); running it again is harmless.
func (s Service) Reindex(ctx context.Context, account string) error {
	all, err := allOrders(ctx, s.Table, account)
	if err != nil {
		return err
	}
	for i := range all {
		if err := setGSI1(ctx, s.Table, account, &all[i]); err != nil {
			return err
		}
	}
	if err := deleteLegacyIndex(ctx, s.Table, account); err != nil {
		return err
	}
	whs, err := s.Warehouses.List(ctx, account)
	if err != nil {
		return err
	}
	if err := s.Table.SetCounts(ctx, account, listCounts(all, whs)); err != nil {
		return fmt.Errorf("set the order counts: %w", err)
	}
	return nil
}
