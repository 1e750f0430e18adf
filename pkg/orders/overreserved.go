package orders

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/inventory"
)

// fixOverReserved reads records again (strongly consistent, one
// BatchGetItem per 100) and handles those whose on_hand is below what is
// reserved there (available < 0): the newest orders allocated there give
// their allocation back until the record is no longer over-reserved, and
// are planned again over the warehouses that still have stock.
func (s Service) fixOverReserved(ctx context.Context, account string, records []inventory.SKUWarehouse) error {
	if len(records) == 0 {
		return nil
	}
	changed, err := s.Inventory.Records(ctx, account, records)
	if err != nil {
		return fmt.Errorf("read changed stock: %w", err)
	}
	for _, r := range changed {
		if r.Available >= 0 {
			continue
		}
		if err := s.takeBack(ctx, account, r.SKU, r.Warehouse, int(-r.Available)); err != nil {
			return err
		}
	}
	return nil
}

// takeBack releases up to deficit units of sku at wh from the newest open
// orders allocated there.
func (s Service) takeBack(ctx context.Context, account, sku, wh string, deficit int) error {
	seqs, err := holdingAt(ctx, s.Table, account, wh, sku)
	if err != nil {
		return err
	}
	for _, seq := range seqs {
		if deficit <= 0 {
			return nil
		}
		err := retry(ctx, func() error {
			cur, err := s.Get(ctx, account, seq)
			if err != nil {
				return err
			}
			next := cur.Clone()
			taken := 0
			for i := len(next.Items) - 1; i >= 0 && taken < deficit; i-- {
				it := &next.Items[i]
				if it.InventorySKU == nil || *it.InventorySKU != sku {
					continue
				}
				n := min(it.AllocatedAt(wh), deficit-taken)
				it.Alloc = AddQty(it.Alloc, wh, -n)
				taken += n
			}
			if taken == 0 {
				return nil
			}
			if err := s.allocate(ctx, account, &next, wh); err != nil {
				return err
			}
			if err := s.save(ctx, account, cur, &next, nil, nil); err != nil {
				return err
			}
			deficit -= taken
			return nil
		})
		if err != nil {
			return fmt.Errorf("take back order %d: %w", seq, err)
		}
	}
	return nil
}
