package demo

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/paging"
)

func init() { register(30, "inventory", seedInventory) }

// tourStock is the least the first warehouse holds of the quick tour's
// product (tourSKU).
const tourStock = 20

// seedInventory stocks the demo products (not the variation groups, which
// are not physical) in the demo warehouses: about three records in four
// exist, with 0 to 120 units on hand and a bin location, created with the
// domain's Create in batches of inventory.MaxItems, not through the queue;
// the first warehouse always holds at least tourStock of tourSKU. Records
// the account has already are left as they are.
func seedInventory(ctx context.Context, e *Env, _ Sizes) error {
	products, err := sellableProducts(ctx, e)
	if err != nil {
		return err
	}
	whs, err := e.Deps.Warehouses().List(ctx, e.Account)
	if err != nil {
		return err
	}
	existing, err := e.Deps.Inventory().All(ctx, e.Account)
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
		err := e.Deps.Inventory().Create(ctx, e.Account, batch)
		batch = batch[:0]
		return err
	}
	for i, p := range products {
		sku := p.SKU
		for w, wh := range whs {
			tour := sku == tourSKU && w == 0
			if e.Rand.IntN(4) == 0 && !tour || have[inventory.SKUWarehouse{SKU: sku, Warehouse: wh.UUID}] {
				continue
			}
			qty := int64(e.Rand.IntN(121))
			if tour {
				qty = max(qty, tourStock)
			}
			bin := fmt.Sprintf("%c-%02d-%d", 'A'+w, 1+e.Rand.IntN(40), 1+e.Rand.IntN(5))
			batch = append(batch, inventory.Item{SKU: sku, Warehouse: wh.UUID, OnHand: &qty, BinLocation: &bin})
			if len(batch) == inventory.MaxItems {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		e.Progress("inventory", i+1, len(products))
	}
	return flush()
}

// sellableProducts lists the account's sellable products (variation groups
// left out) through the catalog's list, page by page.
func sellableProducts(ctx context.Context, e *Env) ([]catalog.Product, error) {
	var out []catalog.Product
	for page := 1; ; page++ {
		l, err := e.Deps.Catalog().List(ctx, e.Account, catalog.Filter{}, paging.Page{Number: page, Limit: paging.MaxLimit})
		if err != nil {
			return nil, fmt.Errorf("list products: %w", err)
		}
		if len(l.Items) == 0 {
			return out, nil
		}
		for _, p := range l.Items {
			if len(p.VariationKeys) == 0 {
				out = append(out, p)
			}
		}
	}
}
