package inventory

import (
	"context"
	"slices"

	"github.com/multisell/multisell/pkg/store"
)

// SKUWarehouse names one inventory record.
type SKUWarehouse struct{ SKU, Warehouse string }

// StockListener is told, after an adjustment or a new record may have made
// stock available, which records changed; the orders domain implements it to
// allocate unassigned order quantities oldest first. Wired in pkg/app.
type StockListener interface {
	StockAvailable(ctx context.Context, account string, records []SKUWarehouse) error
}

// StockAdjuster is a StockListener that also takes what an applied
// adjustment wrote: each item's result with the record's quantities right
// after its write, so that it need not read the records again (the orders
// domain implements it).
type StockAdjuster interface {
	StockListener
	StockAdjusted(ctx context.Context, account string, results []Result) error
}

// tellAdjusted tells l about an applied adjustment: its results when l is a
// StockAdjuster, else the records that changed.
func tellAdjusted(ctx context.Context, l StockListener, account string, results []Result, changed []SKUWarehouse) error {
	if a, ok := l.(StockAdjuster); ok {
		return a.StockAdjusted(ctx, account, results)
	}
	return l.StockAvailable(ctx, account, changed)
}

// Reserve is the write that moves qty from available to reserved at (sku,
// warehouse): qty > 0 reserves under the condition available >= qty (and
// the record exists); qty < 0 releases -qty (condition reserved >= -qty).
// The orders domain commits it with the order.
func (s Service) Reserve(account, sku, warehouse string, qty int) store.Write {
	return reserveWrite(account, sku, warehouse, qty)
}

// Ship is the write that removes qty units from on_hand, of which
// fromReserved (<= qty) were reserved: on_hand -= qty, reserved -=
// fromReserved, available -= qty - fromReserved; condition: record exists,
// reserved >= fromReserved, and (qty - fromReserved == 0 or available >=
// qty - fromReserved). The shipments domain commits it with the shipment.
func (s Service) Ship(account, sku, warehouse string, qty, fromReserved int) store.Write {
	return shipWrite(account, sku, warehouse, qty, fromReserved)
}

// Records reads those of the records rs that exist, with strongly
// consistent reads (one BatchGetItem per 100 keys), in no particular order:
// the stock read of another domain's read-modify-write (the orders
// domain's allocation).
func (s Service) Records(ctx context.Context, account string, rs []SKUWarehouse) ([]Record, error) {
	return getRecords(ctx, s.Table, account, rs)
}

// All reads every record of the account, in (sku, warehouse) order: a
// whole-account view for checks and tools (the orders invariants, the
// demo), never a request's read.
func (s Service) All(ctx context.Context, account string) ([]Record, error) {
	return allRecords(ctx, s.Table, account)
}

// stockReaders is how many SKUs' stock BySKU reads at once.
const stockReaders = 8

// BySKU reads every record of each SKU with strongly consistent reads (one
// Query per SKU, up to stockReaders at once), keyed by SKU: what the
// channel-sync function turns into listing and product quantities.
func (s Service) BySKU(ctx context.Context, account string, skus []string) (map[string][]Record, error) {
	skus = slices.Compact(slices.Sorted(slices.Values(skus)))
	read := make([][]Record, len(skus))
	err := store.Each(len(skus), stockReaders, func(i int) (err error) {
		read[i], err = stockOf(ctx, s.Table, account, skus[i])
		return err
	})
	out := make(map[string][]Record, len(skus))
	for i, sku := range skus {
		if read[i] != nil || err == nil {
			out[sku] = read[i]
		}
	}
	return out, err
}

// SKUsAt returns the SKUs that have a record at the warehouse (one Query
// of GSI1, keys only): whose quantities archiving it changes.
func (s Service) SKUsAt(ctx context.Context, account, warehouse string) ([]string, error) {
	return skusAt(ctx, s.Table, account, warehouse)
}

// StockChanged decodes a stream record of an inventory record: the SKU,
// when the record's available quantity changed (or the record came or
// went).
func StockChanged(c store.Change) (string, bool) {
	if c.Kind != kindRecord || store.Same(c.Old, c.New, attrAvailable) {
		return "", false
	}
	img := c.New
	if !img.Exists() {
		img = c.Old
	}
	sku := img.Text(attrSKU)
	return sku, sku != ""
}
