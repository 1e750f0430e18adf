package orders

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// The reads of CheckInvariants, and its checks of what only the stored
// items show: the idempotency keys, the counter and the index items.

// allOrders reads every order of the account, in seq order.
func allOrders(ctx context.Context, t store.Table, account string) ([]Order, error) {
	items, err := t.QueryAll(ctx, store.PK(account, kindOrder))
	if err != nil {
		return nil, err
	}
	var all []Order
	if err := attributevalue.UnmarshalListOfMaps(items, &all); err != nil {
		return nil, fmt.Errorf("unmarshal orders: %w", err)
	}
	return all, nil
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

// checkIndex verifies that the index partitions hold exactly the index
// items the orders imply (the waiting partitions of every SKU an order
// line draws on).
func checkIndex(ctx context.Context, t store.Table, account string, all []Order, whs []warehouses.Warehouse, bad func(string, ...any)) error {
	want := map[string]map[string]types.AttributeValue{}
	for i := range all {
		for pk, item := range indexItems(account, &all[i]) {
			want[pk+"|"+orderSK(&all[i])] = item
		}
	}
	pks := []string{unassignedPK(account)}
	for _, v := range []string{StatusOpen, StatusCompleted, StatusCancelled} {
		pks = append(pks, indexPK(account, dimStatus, v))
	}
	for _, v := range []string{All, Partial, None} {
		pks = append(pks, indexPK(account, dimPayment, v), indexPK(account, dimShipment, v))
	}
	for _, w := range whs {
		pks = append(pks, fulfillPK(account, w.UUID))
	}
	skus := map[string]bool{}
	for _, o := range all {
		for _, it := range o.Items {
			if it.InventorySKU != nil {
				skus[*it.InventorySKU] = true
			}
		}
	}
	for _, sku := range slices.Sorted(maps.Keys(skus)) {
		pks = append(pks, waitingPK(account, sku))
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
				bad("stray index item %s %q", pk, sk.Value)
				continue
			}
			found++
			if !reflect.DeepEqual(w, item) {
				bad("index item %s %q is %v, want %v", pk, sk.Value, item, w)
			}
		}
	}
	if found != len(want) {
		bad("%d index items found, the orders imply %d", found, len(want))
	}
	return nil
}

// checkCounts verifies that each count of the order lists is the number
// of orders in its list (listCounts).
func checkCounts(ctx context.Context, t store.Table, account string, all []Order, whs []warehouses.Warehouse, bad func(string, ...any)) error {
	for name, n := range listCounts(all, whs) {
		got, err := t.Count(ctx, account, name)
		if err != nil {
			return err
		}
		if got != n {
			bad("count %s %s is %d, the orders imply %d", name.List, name.Value, got, n)
		}
	}
	return nil
}
