package orders

import (
	"slices"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/lenient"
)

// Lines shipped or cancelled on the channel (docs/orders.md, "Lines shipped
// or cancelled on the channel"): what a document says of each line's
// shipment and cancellation on the channel, and how an import applies it
// once.

// The document's keys of a line's state on the channel.
const (
	fieldShipped   = "quantity_shipped"
	fieldCancelled = "quantity_cancelled"
	fieldCarrier   = "carrier_name"
	fieldTracking  = "tracking_number"
)

// channelLine is what a document says of a line on the channel: the
// quantities shipped and cancelled there (absolute, cumulative; 0 when not
// sent) and the carrier and tracking number of its shipment there (nil when
// not sent).
type channelLine struct {
	Shipped, Cancelled int
	Carrier, Tracking  *string
}

// readChannelLine reads a line's state on the channel from obj, whose keys
// are prefixed with name: integers from 0, shipped + cancelled at most the
// line's quantity.
func readChannelLine(obj lenient.Object, name string, quantity int) (channelLine, error) {
	var c channelLine
	for _, q := range []struct {
		key string
		dst *int
	}{{fieldShipped, &c.Shipped}, {fieldCancelled, &c.Cancelled}} {
		n := name + "." + q.key
		v, err := obj.Field(n).Int()
		switch {
		case err != nil:
			return c, asDocError(err)
		case v == nil:
			continue
		case *v < 0 || *v > int64(quantity):
			return c, invalid("%s must be an integer from 0 to the line's quantity %d", n, quantity)
		}
		*q.dst = int(*v)
	}
	if c.Shipped+c.Cancelled > quantity {
		return c, invalid("%s.%s %d + %s %d exceed the line's quantity %d", name, fieldShipped, c.Shipped, fieldCancelled, c.Cancelled, quantity)
	}
	for _, t := range []struct {
		key string
		dst **string
	}{{fieldCarrier, &c.Carrier}, {fieldTracking, &c.Tracking}} {
		n := name + "." + t.key
		s, err := obj.Field(n).String()
		if err != nil {
			return c, asDocError(err)
		}
		if s != nil && len(*s) > maxRefLength {
			return c, invalid("%s must be at most %d characters", n, maxRefLength)
		}
		*t.dst = s
	}
	return c, nil
}

// channelShip is the stock a channel's shipment takes out of one inventory
// record: Qty units of on_hand, all of them reserved for the order.
type channelShip map[allocation.Record]int

// applyChannel applies what d says of each line on the channel to next
// (docs/orders.md): the line's quantity_fulfilled rises to the channel's
// shipped quantity (never counting twice what multisell shipped itself)
// and its cancelled quantity to the channel's (cancelledOf; at most what is
// not shipped); quantities the channel reports lower than before are ignored. A
// new order (fresh) takes the quantities as they are, touching no stock;
// an open order ships the new units from its allocations (returned, for the
// inventory.Ship writes and the reservations they cover) and gives back
// what is cancelled. A line cancelled whole is cancelled at at. It reports
// whether a line shipped more.
func applyChannel(next *Order, d *document, fresh bool, at string) (channelShip, bool) {
	moves := channelShip{}
	if !fresh && !next.open() {
		return moves, false
	}
	shippedMore := false
	for _, di := range d.Items {
		i := slices.IndexFunc(next.Items, func(it Item) bool { return it.OrderItemRef == di.Ref })
		if i < 0 {
			continue
		}
		it := &next.Items[i]
		c := di.Channel
		if c.Carrier != nil {
			it.CarrierName = c.Carrier
		}
		if c.Tracking != nil {
			it.TrackingNumber = c.Tracking
		}
		if it.CancelledAt != nil {
			continue
		}
		if more := min(c.Shipped, it.Quantity-it.QuantityCancelled) - it.QuantityFulfilled; more > 0 {
			shippedMore = true
			if !fresh {
				shipFromAllocations(it, more, moves)
			}
			it.QuantityFulfilled += more
		}
		it.QuantityCancelled = max(it.QuantityCancelled, min(cancelledOf(it, di), it.Quantity-it.QuantityFulfilled))
		if it.QuantityCancelled == it.Quantity {
			it.CancelledAt = &at
		}
		trimAllocations(it)
	}
	return moves, shippedMore
}

// cancelledOf is how much of line it the channel's line di cancels: its
// quantity_cancelled, and the units it no longer orders when its quantity
// is lower than the line's (Amazon shows a cancelled unit that way:
// docs/connectors.md, "Amazon").
func cancelledOf(it *Item, di docItem) int {
	return di.Channel.Cancelled + max(it.Quantity-di.Quantity, 0)
}

// shipFromAllocations takes q units of it out of its allocations, in
// allocation order, as a shipment made here without a ship-from warehouse
// would; units beyond them were not reserved here and move no stock.
func shipFromAllocations(it *Item, q int, moves channelShip) {
	for _, a := range slices.Clone(it.Alloc) {
		if q == 0 {
			return
		}
		n := min(q, a.Quantity)
		moves[allocation.Record{SKU: *it.InventorySKU, Warehouse: a.WarehouseUUID}] += n
		it.Shipped = AddQty(it.Shipped, a.WarehouseUUID, n)
		it.Alloc = AddQty(it.Alloc, a.WarehouseUUID, -n)
		q -= n
	}
}

// trimAllocations gives back the allocations of it beyond what it still
// needs (its quantity less what is shipped and cancelled), the last
// warehouse's first.
func trimAllocations(it *Item) {
	over := it.Allocated() + it.QuantityFulfilled + it.QuantityCancelled - it.Quantity
	for i := len(it.Alloc) - 1; i >= 0 && over > 0; i-- {
		a := it.Alloc[i]
		n := min(over, a.Quantity)
		it.Alloc = AddQty(it.Alloc, a.WarehouseUUID, -n)
		over -= n
	}
}
