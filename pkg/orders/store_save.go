package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/store"
)

// maxTxItems is the most items one TransactWriteItems takes.
const maxTxItems = store.MaxWrites

// save writes next over cur (nil: next is new) in write sets that keep the
// invariants of docs/orders.md: the order item (conditioned on its
// version), its index items and the counts of its lists, and one reservation change per inventory
// record whose allocation differs, plus extra (written with the last
// step). covered names reservation changes that extra makes itself (a
// shipment's inventory.Ship of reserved units, see SaveShipment). When
// everything does not fit in one transaction, the allocation changes go
// first in steps that each hold the invariants on their own. A lost race is
// ErrRetry.
func (s Service) save(ctx context.Context, account string, cur, next *Order, extra []store.Write, covered map[allocation.Record]int) error {
	next.derive()
	if cur == nil {
		if 1+len(indexWrites(account, nil, next))+len(reserveDeltas(nil, next))+len(extra) <= maxTxItems {
			return s.write(ctx, account, nil, next, extra, nil)
		}
		// The new order first, without allocations, with the operation's
		// own writes (which must not be written twice); then its
		// allocations in steps.
		base := next.Clone()
		for i := range base.Items {
			base.Items[i].Alloc = nil
		}
		if err := s.write(ctx, account, nil, &base, extra, nil); err != nil {
			return err
		}
		cur, extra = &base, nil
	}
	for {
		deltas := reserveDeltas(cur, next)
		if 1+len(indexWrites(account, cur, next))+len(extra)+len(deltas) <= maxTxItems {
			return s.write(ctx, account, cur, next, extra, covered)
		}
		step, err := firstStep(account, cur, next, deltas)
		if err != nil {
			return err
		}
		if err := s.write(ctx, account, cur, step, nil, nil); err != nil {
			return err
		}
		cur = step
	}
}

// firstStep is cur with as many of deltas, the reservation changes that
// take it to next, applied as fit in one transaction with the index and
// count changes they make.
func firstStep(account string, cur, next *Order, deltas []delta) (*Order, error) {
	for n := min(len(deltas), maxTxItems-1); n > 0; {
		step := cur.Clone()
		for _, d := range deltas[:n] {
			for i := range step.Items {
				it := &step.Items[i]
				if it.InventorySKU != nil && *it.InventorySKU == d.SKU {
					it.Alloc = AddQty(it.Alloc, d.Warehouse, next.Items[i].AllocatedAt(d.Warehouse)-it.AllocatedAt(d.Warehouse))
				}
			}
		}
		over := 1 + len(indexWrites(account, cur, &step)) + n - maxTxItems
		if over <= 0 {
			return &step, nil
		}
		n -= over
	}
	return nil, fmt.Errorf("order %d touches too many warehouses for one transaction", next.Seq)
}

// write commits one write set taking cur to next (see save): a single
// PutItem when the order item is all that changes, else one
// TransactWriteItems. A failed condition or a cancelled transaction is
// ErrRetry.
func (s Service) write(ctx context.Context, account string, cur, next *Order, extra []store.Write, covered map[allocation.Record]int) error {
	cond, values := "attribute_not_exists(PK)", map[string]types.AttributeValue(nil)
	touch(cur, next, time.Now())
	if cur == nil {
		next.Version = 1
	} else {
		next.Version = cur.Version + 1
		cond = "ver = :v"
		values = map[string]types.AttributeValue{":v": store.N(cur.Version)}
	}
	item, err := orderItem(account, next)
	if err != nil {
		return err
	}
	writes := append([]store.Write{store.Put(item, cond, values)}, indexWrites(account, cur, next)...)
	for _, d := range reserveDeltas(cur, next) {
		if q := d.Qty + covered[d.Record]; q != 0 {
			writes = append(writes, s.Inventory.Reserve(account, d.SKU, d.Warehouse, q))
		}
	}
	writes = append(writes, extra...)
	err = s.Table.Commit(ctx, writes)
	if err == nil {
		return nil
	}
	if store.CancellationReasons(err) != nil || store.ConditionFailed(err) {
		return fmt.Errorf("save order %d: %w: %w", next.Seq, ErrRetry, err)
	}
	return fmt.Errorf("save order %d: %w", next.Seq, err)
}
