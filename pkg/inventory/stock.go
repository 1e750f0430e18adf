package inventory

import "context"

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
