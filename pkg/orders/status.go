package orders

// derive recomputes the service's fields of o from its lines and payment
// (docs/orders.md, "Import"): an order whose lines are all cancelled is
// cancelled; shipment_status comes from the shipped quantities (a quantity
// cancelled on the channel is not required); sb_status is
// cancelled, completed (all shipped and all paid) or open. A line that no
// longer needs stock (cancelled, or its order not open) loses its
// allocations; the caller's save releases them.
func (o *Order) derive() {
	if o.CancelledAt == nil && len(o.Items) > 0 {
		var last *string
		for _, it := range o.Items {
			if it.CancelledAt == nil {
				last = nil
				break
			}
			if last == nil || *it.CancelledAt > *last {
				last = it.CancelledAt
			}
		}
		o.CancelledAt = last
	}
	shipped, required := 0, 0
	for _, it := range o.Items {
		shipped += it.QuantityFulfilled
		if it.CancelledAt != nil {
			required += it.QuantityFulfilled
		} else {
			required += it.Quantity - it.QuantityCancelled
		}
	}
	switch {
	case shipped == 0:
		o.ShipmentStatus = None
	case shipped >= required:
		o.ShipmentStatus = All
	default:
		o.ShipmentStatus = Partial
	}
	switch {
	case o.CancelledAt != nil:
		o.Status = StatusCancelled
	case o.ShipmentStatus == All && o.PaymentStatus == All:
		o.Status = StatusCompleted
	default:
		o.Status = StatusOpen
	}
	for i := range o.Items {
		if o.Status != StatusOpen || o.Items[i].CancelledAt != nil {
			o.Items[i].Alloc = nil
		}
	}
}

// open reports whether o may still change stock: it is open.
func (o *Order) open() bool { return o.Status == StatusOpen }

// needs returns the inventory SKUs of o's lines with unassigned quantity.
func (o *Order) needs() []string {
	if !o.open() {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, it := range o.Items {
		if it.InventorySKU != nil && it.Unassigned() > 0 && !seen[*it.InventorySKU] {
			seen[*it.InventorySKU] = true
			out = append(out, *it.InventorySKU)
		}
	}
	return out
}

// allocatedAt returns the inventory SKUs o holds at wh.
func (o *Order) allocatedAt(wh string) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range o.Items {
		if it.InventorySKU != nil && it.AllocatedAt(wh) > 0 && !seen[*it.InventorySKU] {
			seen[*it.InventorySKU] = true
			out = append(out, *it.InventorySKU)
		}
	}
	return out
}

// allocationWarehouses returns the warehouses o holds stock at.
func (o *Order) allocationWarehouses() []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range o.Items {
		for _, a := range it.Alloc {
			if !seen[a.WarehouseUUID] {
				seen[a.WarehouseUUID] = true
				out = append(out, a.WarehouseUUID)
			}
		}
	}
	return out
}
