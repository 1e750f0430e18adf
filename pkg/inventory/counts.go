package inventory

import "github.com/multisell/multisell/pkg/store"

// countList is the name of the inventory records' counts (store.Counts):
// one for the whole list and one per warehouse, in one item, so that a
// creation writes one count item. Records are never deleted, so only a
// creation changes them.
const countList = "inventory"

// allCount is the count of the account's records.
var allCount = store.CountName{List: countList, Value: store.CountAll}

// warehouseCount is the count of one warehouse's records.
func warehouseCount(warehouse string) store.CountName {
	return store.CountPer(countList, "wh", warehouse)
}

// created are the count changes of new records at the warehouses.
func created(warehouses ...string) store.Counts {
	c := store.Counts{}
	for _, w := range warehouses {
		c.Add(allCount, 1)
		c.Add(warehouseCount(w), 1)
	}
	return c
}
