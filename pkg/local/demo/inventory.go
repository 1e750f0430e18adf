package demo

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/warehouses"
)

func init() { register(30, "inventory", seedInventory) }

// seedInventory stocks the demo products (not the variation groups, which
// are not physical) in the demo warehouses: about three records in four
// exist, with 0 to 120 units on hand and a bin location, created with the
// domain's Create in batches of inventory.MaxItems, not through the queue.
// Records the account has already are left as they are.
func seedInventory(ctx context.Context, e *Env, _ Sizes) error {
	skus, err := demoSKUs(ctx, e)
	if err != nil {
		return err
	}
	whs, err := warehouses.Service{Table: e.Deps.Table}.List(ctx, e.Account)
	if err != nil {
		return err
	}
	existing, err := inventory.Service{Table: e.Deps.Table}.All(ctx, e.Account)
	if err != nil {
		return err
	}
	have := map[inventory.SKUWarehouse]bool{}
	for _, r := range existing {
		have[inventory.SKUWarehouse{SKU: r.SKU, Warehouse: r.Warehouse}] = true
	}
	var batch []inventory.Item
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := inventory.Service{Table: e.Deps.Table}.Create(ctx, e.Account, batch)
		batch = batch[:0]
		return err
	}
	for i, sku := range skus {
		for w, wh := range whs {
			if e.Rand.IntN(4) == 0 || have[inventory.SKUWarehouse{SKU: sku, Warehouse: wh.UUID}] {
				continue
			}
			qty := int64(e.Rand.IntN(121))
			bin := fmt.Sprintf("%c-%02d-%d", 'A'+w, 1+e.Rand.IntN(40), 1+e.Rand.IntN(5))
			batch = append(batch, inventory.Item{SKU: sku, Warehouse: wh.UUID, OnHand: &qty, BinLocation: &bin})
			if len(batch) == inventory.MaxItems {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		e.Progress("inventory", i+1, len(skus))
	}
	return flush()
}

// demoSKUs lists the account's sellable products (variation groups left
// out) through the catalog's list, page by page.
func demoSKUs(ctx context.Context, e *Env) ([]string, error) {
	var skus []string
	for page := 1; ; page++ {
		l, err := catalog.Service{Table: e.Deps.Table}.List(ctx, e.Account, catalog.Filter{}, paging.Page{Number: page, Limit: paging.MaxLimit})
		if err != nil {
			return nil, fmt.Errorf("list products: %w", err)
		}
		if len(l.Items) == 0 {
			return skus, nil
		}
		for _, p := range l.Items {
			if len(p.VariationKeys) == 0 {
				skus = append(skus, p.SKU)
			}
		}
	}
}
