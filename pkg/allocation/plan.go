package allocation

// Line is one order line that still needs stock.
type Line struct {
	// Ref identifies the line (its order_item_ref).
	Ref string
	// SKU is the inventory SKU the line draws from.
	SKU string
	// Need is the quantity still to allocate (unassigned).
	Need int
}

// Record names one inventory record: a SKU in a warehouse.
type Record struct{ SKU, Warehouse string }

// Stock is the quantity available per inventory record; a missing record
// has none.
type Stock map[Record]int

// Alloc is a quantity of one line reserved at one warehouse.
type Alloc struct {
	Warehouse string
	Qty       int
}

// Plan allocates lines to warehouses, given in priority order. It prefers
// the highest-priority warehouse that can ship every line in full; if none
// can, it fills each line in turn from the warehouses by priority, and what
// no warehouse holds stays unassigned. The result maps a line's Ref to its
// allocations (absent when nothing could be allocated). stock is not
// changed.
func Plan(lines []Line, warehouses []string, stock Stock) map[string][]Alloc {
	out := map[string][]Alloc{}
	need := map[string]int{}
	for _, l := range lines {
		if l.Need > 0 && l.SKU != "" {
			need[l.SKU] += l.Need
		}
	}
	if len(need) == 0 {
		return out
	}
	if wh, ok := wholeOrder(need, warehouses, stock); ok {
		for _, l := range lines {
			if l.Need > 0 && l.SKU != "" {
				out[l.Ref] = append(out[l.Ref], Alloc{Warehouse: wh, Qty: l.Need})
			}
		}
		return out
	}
	left := make(Stock, len(stock))
	for k, v := range stock {
		left[k] = v
	}
	for _, l := range lines {
		if l.SKU == "" {
			continue
		}
		rest := l.Need
		for _, wh := range warehouses {
			if rest <= 0 {
				break
			}
			r := Record{SKU: l.SKU, Warehouse: wh}
			take := min(rest, left[r])
			if take <= 0 {
				continue
			}
			left[r] -= take
			rest -= take
			out[l.Ref] = append(out[l.Ref], Alloc{Warehouse: wh, Qty: take})
		}
	}
	return out
}

// wholeOrder returns the first warehouse holding the whole need of every SKU.
func wholeOrder(need map[string]int, warehouses []string, stock Stock) (string, bool) {
	for _, wh := range warehouses {
		ok := true
		for sku, n := range need {
			if stock[Record{SKU: sku, Warehouse: wh}] < n {
				ok = false
				break
			}
		}
		if ok {
			return wh, true
		}
	}
	return "", false
}
