package orders

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Item kinds of the orders domain (see docs/data-model.md).
const (
	kindOrder      = "O"    // the order, SK = zero-padded sb_order_seq
	kindRef        = "OREF" // (channel, display_ref) -> seq: the import idempotency key
	kindSeq        = "OSEQ" // the account's order sequence counter
	kindAll        = "OALL" // GSI1 partition of every order, by (ordered_at, seq)
	kindIndex      = "OX"   // index items of the order lists by status: OX#st=, OX#pay=, OX#ship=
	kindFulfill    = "FX"   // FX#<warehouse>: open orders allocated there
	kindChanged    = "OUPD" // GSI2 partition of the orders by updated_at
	kindUnassigned = "UX"   // open orders with unassigned quantities
)

// seqText is the sort-key form of a sequence number: fixed width, so text
// order is numeric order.
func seqText(seq int64) string { return fmt.Sprintf("%012d", seq) }

func orderKey(account string, seq int64) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindOrder), seqText(seq))
}

func refKey(account, channel, displayRef string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindRef), refSK(channel, displayRef))
}

// refSK is the sort key of an idempotency key; a very long display ref is
// shortened to fit (store.KeyText).
func refSK(channel, displayRef string) string {
	return store.Join(channel, store.KeyText(displayRef))
}

func seqKey(account string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindSeq), "ORDER")
}

// getOrder reads one order of the account: one strongly consistent
// GetItem; errs.NotFound when there is none.
func getOrder(ctx context.Context, t store.Table, account string, seq int64) (*Order, error) {
	var o Order
	found, err := t.Get(ctx, orderKey(account, seq), &o, true)
	if err != nil {
		return nil, fmt.Errorf("get order %d: %w", seq, err)
	}
	if !found {
		return nil, errs.NotFound(NotFoundMessage)
	}
	return &o, nil
}

// decodeOrder unmarshals a stored order.
func decodeOrder(item map[string]types.AttributeValue) (*Order, error) {
	var o Order
	if err := attributevalue.UnmarshalMap(item, &o); err != nil {
		return nil, fmt.Errorf("unmarshal order: %w", err)
	}
	return &o, nil
}

// getMany reads the orders with the given seqs and returns them in that
// order (unknown ones skipped): one BatchGetItem per 100.
func getMany(ctx context.Context, t store.Table, account string, seqs []int64) ([]Order, error) {
	keys := make([]map[string]types.AttributeValue, len(seqs))
	for i, s := range seqs {
		keys[i] = orderKey(account, s)
	}
	items, err := t.BatchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("read orders: %w", err)
	}
	bySeq := make(map[int64]Order, len(items))
	for _, it := range items {
		o, err := decodeOrder(it)
		if err != nil {
			return nil, err
		}
		bySeq[o.Seq] = *o
	}
	out := make([]Order, 0, len(seqs))
	for _, s := range seqs {
		if o, ok := bySeq[s]; ok {
			out = append(out, o)
		}
	}
	return out, nil
}

// orderItem is the stored item of o, at o.Version.
func orderItem(account string, o *Order) (map[string]types.AttributeValue, error) {
	item, err := store.Marshal(o, orderKey(account, o.Seq))
	if err != nil {
		return nil, err
	}
	item["ver"] = store.N(o.Version)
	item[store.AttrGSI1PK] = store.S(allPK(account))
	item[store.AttrGSI1SK] = store.S(orderSK(o))
	if o.UpdatedAt != nil {
		item[store.AttrGSI2PK] = store.S(changedPK(account))
		item[store.AttrGSI2SK] = store.S(store.Join(*o.UpdatedAt, seqText(o.Seq)))
	}
	return item, nil
}

// allPK is the GSI1 partition of the account's orders, sorted by
// (ordered_at, seq): every order item carries its GSI1 key (orderItem).
func allPK(account string) string { return store.PK(account, kindAll) }

// refItem is the idempotency key of the order seq imported as (channel,
// displayRef).
func refItem(account, channel, displayRef string, seq int64) map[string]types.AttributeValue {
	ref := refKey(account, channel, displayRef)
	ref["seq"] = store.N(seq)
	ref["channel_uuid"], ref["display_ref"] = store.S(channel), store.S(displayRef)
	return ref
}

// seqCounterItem is the account's order sequence counter holding seq.
func seqCounterItem(account string, seq int64) map[string]types.AttributeValue {
	item := seqKey(account)
	item["seq"] = store.N(seq)
	return item
}

// refSeq reads the seq of the order imported as (channel, displayRef):
// one strongly consistent GetItem; false when there is none.
func refSeq(ctx context.Context, t store.Table, account, channel, displayRef string) (int64, bool, error) {
	var ref seqAttr
	found, err := t.Get(ctx, refKey(account, channel, displayRef), &ref, true)
	if err != nil {
		return 0, false, fmt.Errorf("read order ref: %w", err)
	}
	return ref.Seq, found, nil
}

// lastSeq reads the account's last sequence number (0 before its first
// order): one strongly consistent GetItem.
func lastSeq(ctx context.Context, t store.Table, account string) (int64, error) {
	var counter seqAttr
	if _, err := t.Get(ctx, seqKey(account), &counter, true); err != nil {
		return 0, fmt.Errorf("read order sequence: %w", err)
	}
	return counter.Seq, nil
}

// seqAttr is the seq attribute of an order's idempotency key or of the
// account's sequence counter.
type seqAttr struct {
	Seq int64 `dynamodbav:"seq"`
}

// createWrites are the writes that go with a new order imported as
// (channel, displayRef): its idempotency key (which must not exist) and the
// sequence counter (which must still hold prev, so numbers are never reused
// nor skipped).
func createWrites(account, channel, displayRef string, prev int64) []store.Write {
	counter := store.Update{Set: []string{"seq = :next"}, Condition: "attribute_not_exists(seq)"}
	counter.Value(":next", store.N(prev+1))
	if prev > 0 {
		counter.Condition = "seq = :prev"
		counter.Value(":prev", store.N(prev))
	}
	return []store.Write{
		store.Put(refItem(account, channel, displayRef, prev+1), "attribute_not_exists(PK)", nil),
		counter.Write(seqKey(account)),
	}
}

// seedItems returns the items the import of o (a new order: Seq set, its
// lines and allocations filled, statuses derived, version 1) stores: the
// order, its idempotency key and its index items.
func seedItems(account string, o *Order) ([]map[string]types.AttributeValue, error) {
	item, err := orderItem(account, o)
	if err != nil {
		return nil, err
	}
	out := []map[string]types.AttributeValue{item, refItem(account, o.ChannelUUID, o.DisplayRef, o.Seq)}
	idx := indexItems(account, o)
	for _, pk := range slices.Sorted(maps.Keys(idx)) {
		out = append(out, idx[pk])
	}
	return out, nil
}

// supply is what a plan draws on: the stock available at the records of
// the SKUs concerned, and the warehouses to plan over (the active ones, in
// priority order).
type supply struct {
	stock allocation.Stock
	whs   []string
}

// readSupply reads the stock of skus, only the records that exist (one
// strongly consistent Query per SKU), and the warehouses to plan it over:
// this process's copy of the list (warehouses.Cached), read again when a
// record is at a warehouse the copy lacks. Records at archived
// warehouses are left out. No SKUs, no reads.
func (s Service) readSupply(ctx context.Context, account string, skus []string) (supply, error) {
	if len(skus) == 0 {
		return supply{}, nil
	}
	bySKU, err := s.Inventory.BySKU(ctx, account, skus)
	if err != nil {
		return supply{}, fmt.Errorf("read stock: %w", err)
	}
	seen := map[string]bool{}
	for _, recs := range bySKU {
		for _, r := range recs {
			seen[r.Warehouse] = true
		}
	}
	all, err := s.Warehouses.Cached(ctx, account, slices.Sorted(maps.Keys(seen)))
	if err != nil {
		return supply{}, err
	}
	out := supply{stock: allocation.Stock{}, whs: warehouseIDs(warehouses.Allocatable(all))}
	for _, recs := range bySKU {
		for _, r := range recs {
			if slices.Contains(out.whs, r.Warehouse) {
				out.stock[allocation.Record{SKU: r.SKU, Warehouse: r.Warehouse}] = int(r.Available)
			}
		}
	}
	return out, nil
}
