package orders

import (
	"strings"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
)

// Filter is what GET /orders and the fulfillments select (docs/orders.md,
// "Listings"): a status of each kind ("" for any) and a range of
// ordered_at. The filters combine (AND).
type Filter struct {
	Status         string // sb_status: StatusOpen, StatusCompleted or StatusCancelled
	PaymentStatus  string // sb_payment_status: All, Partial or None
	ShipmentStatus string // shipment_status: All, Partial or None
	OrderedAt      isotime.Range
	// UpdatedAt selects the orders whose updated_at is in the range; the
	// list is then in (updated_at, sb_order_seq) order.
	UpdatedAt isotime.Range
}

// Status filter names and the values each takes, as the API spells them.
var (
	statusFilter = map[string]string{
		"open": StatusOpen, "completed": StatusCompleted, "canceled": StatusCancelled, "cancelled": StatusCancelled,
	}
	progressFilter = map[string]string{"all": All, "partial": Partial, "none": None}
	filterValues   = map[string]struct {
		allowed map[string]string
		list    string
	}{
		"sb_status":         {statusFilter, "open, completed, canceled"},
		"sb_payment_status": {progressFilter, "all, partial, none"},
		"shipment_status":   {progressFilter, "all, partial, none"},
	}
)

// filterValue validates the value raw of the status filter name
// (sb_status, sb_payment_status or shipment_status), ignoring case and
// surrounding space.
func filterValue(name, raw string) (string, error) {
	f := filterValues[name]
	v, ok := f.allowed[strings.ToLower(strings.TrimSpace(raw))]
	if !ok {
		return "", errs.Invalid("%s must be one of %s", name, f.list)
	}
	return v, nil
}

// fulfillment is o as a fulfillment at wh, for output: only its lines
// allocated there, each with its fulfillment_quantity. False when o is not
// open or holds nothing at wh.
func fulfillment(o Order, wh string) (Order, bool) {
	if !o.open() {
		return o, false
	}
	o.forOutput()
	items := make([]Item, 0, len(o.Items))
	for _, it := range o.Items {
		if q := it.AllocatedAt(wh); q > 0 {
			it.FulfillmentQuantity = &q
			items = append(items, it)
		}
	}
	o.Items = items
	return o, len(items) > 0
}
