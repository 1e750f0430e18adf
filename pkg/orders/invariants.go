package orders

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// CheckInvariants verifies DESIGN.md section 6's invariants over a whole
// account, reading everything (for tests and operators, never on a request
// path): every inventory record has available = on_hand - reserved and
// reserves exactly the open orders' allocations there; every open line has
// allocated + unassigned + quantity_fulfilled = quantity with nothing
// negative, and lines that are cancelled or of orders that are not open
// hold nothing; statuses follow from the lines; sequence numbers run from 1
// with no gap and each has its idempotency key; and the listing items are
// exactly those the orders imply. It returns every violation found, joined.
func (s Service) CheckInvariants(ctx context.Context, account string) error {
	t := s.Table
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	orderItems, err := t.QueryAll(ctx, store.PK(account, kindOrder))
	if err != nil {
		return err
	}
	var all []Order
	if err := attributevalue.UnmarshalListOfMaps(orderItems, &all); err != nil {
		return fmt.Errorf("unmarshal orders: %w", err)
	}
	want := map[allocation.Record]int{}
	listings := map[string]map[string]types.AttributeValue{}
	for i, o := range all {
		if o.Seq != int64(i+1) {
			bad("order seqs are not 1..n: found %d at position %d", o.Seq, i+1)
		}
		checkOrder(&o, bad)
		for _, it := range o.Items {
			for _, a := range it.Alloc {
				want[allocation.Record{SKU: *it.InventorySKU, Warehouse: a.WarehouseUUID}] += a.Quantity
			}
		}
		for pk, item := range indexItems(account, &o) {
			listings[pk+"|"+orderSK(&o)] = item
		}
	}
	checkStock(ctx, t, account, want, bad)
	checkRefs(ctx, t, account, all, bad)
	if err := checkListings(ctx, t, account, listings, bad); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// checkOrder verifies one order's lines and statuses.
func checkOrder(o *Order, bad func(string, ...any)) {
	for _, it := range o.Items {
		alloc := 0
		for _, a := range it.Alloc {
			if a.Quantity <= 0 {
				bad("order %d line %s: allocation %d at %s", o.Seq, it.OrderItemRef, a.Quantity, a.WarehouseUUID)
			}
			alloc += a.Quantity
		}
		if alloc > 0 && (!o.open() || it.CancelledAt != nil || it.InventorySKU == nil) {
			bad("order %d line %s: holds %d but needs no stock", o.Seq, it.OrderItemRef, alloc)
		}
		if it.QuantityFulfilled < 0 || alloc+it.QuantityFulfilled > it.Quantity {
			bad("order %d line %s: allocated %d + fulfilled %d exceed quantity %d",
				o.Seq, it.OrderItemRef, alloc, it.QuantityFulfilled, it.Quantity)
		}
		if sumQty(it.Shipped) > it.QuantityFulfilled {
			bad("order %d line %s: shipped per warehouse %d > fulfilled %d", o.Seq, it.OrderItemRef, sumQty(it.Shipped), it.QuantityFulfilled)
		}
	}
	d := o.Clone()
	d.derive()
	if d.Status != o.Status || d.ShipmentStatus != o.ShipmentStatus {
		bad("order %d: statuses %s/%s, expected %s/%s", o.Seq, o.Status, o.ShipmentStatus, d.Status, d.ShipmentStatus)
	}
}

// checkStock verifies every inventory record against the allocations.
func checkStock(ctx context.Context, t store.Table, account string, want map[allocation.Record]int, bad func(string, ...any)) {
	items, err := t.QueryAll(ctx, store.PK(account, "INV"))
	if err != nil {
		bad("read inventory: %w", err)
		return
	}
	seen := map[allocation.Record]bool{}
	for _, item := range items {
		var r inventory.Record
		if err := attributevalue.UnmarshalMap(item, &r); err != nil {
			bad("unmarshal inventory: %w", err)
			continue
		}
		k := allocation.Record{SKU: r.SKU, Warehouse: r.Warehouse}
		seen[k] = true
		if r.Available != r.OnHand-r.Reserved {
			bad("inventory %s: available %d != on_hand %d - reserved %d", describe(k), r.Available, r.OnHand, r.Reserved)
		}
		if r.Reserved != int64(want[k]) {
			bad("inventory %s: reserved %d, open orders hold %d", describe(k), r.Reserved, want[k])
		}
	}
	for k, n := range want {
		if !seen[k] && n != 0 {
			bad("orders hold %d of %s, which has no inventory record", n, describe(k))
		}
	}
}

// checkRefs verifies that each order has its idempotency key and the
// counter holds the last seq.
func checkRefs(ctx context.Context, t store.Table, account string, all []Order, bad func(string, ...any)) {
	refs, err := t.QueryAll(ctx, store.PK(account, kindRef))
	if err != nil {
		bad("read order refs: %w", err)
		return
	}
	bySeq := map[int64]string{}
	for _, r := range refs {
		seq, err := itemSeq(r)
		if err != nil {
			bad("order ref: %w", err)
			continue
		}
		sk, _ := r[store.AttrSK].(*types.AttributeValueMemberS)
		bySeq[seq] = sk.Value
	}
	for _, o := range all {
		if bySeq[o.Seq] != refSK(o.ChannelUUID, o.DisplayRef) {
			bad("order %d: idempotency key %q", o.Seq, bySeq[o.Seq])
		}
	}
	if len(refs) != len(all) {
		bad("%d idempotency keys for %d orders", len(refs), len(all))
	}
	counter, err := t.QueryAll(ctx, store.PK(account, kindSeq))
	if err != nil {
		bad("read order counter: %w", err)
		return
	}
	last := int64(0)
	if len(counter) == 1 {
		last, _ = itemSeq(counter[0])
	}
	if last != int64(len(all)) {
		bad("order counter %d, %d orders", last, len(all))
	}
}

// checkListings verifies that the listing partitions hold exactly the
// listing items the orders imply.
func checkListings(ctx context.Context, t store.Table, account string, want map[string]map[string]types.AttributeValue, bad func(string, ...any)) error {
	pks := []string{listPK(account, dimAll, ""), unassignedPK(account)}
	for _, v := range []string{StatusOpen, StatusCompleted, StatusCancelled} {
		pks = append(pks, listPK(account, dimStatus, v))
	}
	for _, v := range []string{All, Partial, None} {
		pks = append(pks, listPK(account, dimPayment, v), listPK(account, dimShipment, v))
	}
	whs, err := warehouses.Service{Table: t}.List(ctx, account)
	if err != nil {
		return err
	}
	for _, w := range whs {
		pks = append(pks, fulfillPK(account, w.UUID))
	}
	found := 0
	for _, pk := range pks {
		items, err := t.QueryAll(ctx, pk)
		if err != nil {
			return err
		}
		for _, item := range items {
			sk, _ := item[store.AttrSK].(*types.AttributeValueMemberS)
			w, ok := want[pk+"|"+sk.Value]
			if !ok {
				bad("stray listing item %s %q", pk, sk.Value)
				continue
			}
			found++
			if !reflect.DeepEqual(w, item) {
				bad("listing item %s %q is %v, want %v", pk, sk.Value, item, w)
			}
		}
	}
	if found != len(want) {
		bad("%d listing items found, the orders imply %d", found, len(want))
	}
	return nil
}

// describe names a record in a violation.
func describe(r allocation.Record) string {
	return fmt.Sprintf("SKU %q at warehouse %s", r.SKU, r.Warehouse)
}
