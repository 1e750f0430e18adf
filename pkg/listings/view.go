package listings

import (
	"context"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
)

// view is what channel sync reads of one account to decide quantities:
// its channels, which warehouses count, and the stock of the SKUs
// concerned (and their records, which the product copies write to).
type view struct {
	channels map[string]channels.Channel
	archived map[string]bool
	stock    map[string]Stock
	records  map[string][]inventory.Record
}

// view reads the account's channels and warehouses: two Queries.
func (s Service) view(ctx context.Context, account string) (*view, error) {
	chs, err := s.Channels.List(ctx, account)
	if err != nil {
		return nil, err
	}
	whs, err := s.Warehouses.List(ctx, account)
	if err != nil {
		return nil, err
	}
	v := &view{channels: map[string]channels.Channel{}, archived: map[string]bool{}, stock: map[string]Stock{},
		records: map[string][]inventory.Record{}}
	for _, c := range chs {
		v.channels[c.UUID] = c
	}
	for _, w := range whs {
		v.archived[w.UUID] = w.Archived
	}
	return v, nil
}

// readStock reads the stock of the SKUs not read yet (one consistent Query
// each, inventory.BySKU), leaving out archived warehouses, and keeps their
// records.
func (v *view) readStock(ctx context.Context, inv inventory.Service, account string, skus []string) error {
	var missing []string
	for _, s := range skus {
		if _, ok := v.stock[s]; !ok {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	recs, err := inv.BySKU(ctx, account, missing)
	if err != nil {
		return err
	}
	for _, s := range missing {
		v.records[s] = recs[s]
		st := Stock{}
		for _, r := range recs[s] {
			if !v.archived[r.Warehouse] {
				st[r.Warehouse] = r.Available
			}
		}
		v.stock[s] = st
	}
	return nil
}

// total is a SKU's derived product quantity: its available stock at
// warehouses that are not archived, never below 0.
func (v *view) total(sku string) int64 {
	var t int64
	for _, n := range v.stock[sku] {
		t += n
	}
	return max(t, 0)
}
