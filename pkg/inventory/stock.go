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
