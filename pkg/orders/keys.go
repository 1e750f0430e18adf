package orders

import (
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// Item kinds of the orders domain (see docs/data-model.md).
const (
	kindOrder      = "O"    // the order, SK = zero-padded sb_order_seq
	kindRef        = "OREF" // (channel, display_ref) -> seq: the import idempotency key
	kindSeq        = "OSEQ" // the account's order sequence counter
	kindList       = "OX"   // listing index items: OX#all, OX#st=, OX#pay=, OX#ship=
	kindFulfill    = "FX"   // FX#<warehouse>: open orders allocated there
	kindUnassigned = "UX"   // open orders with unassigned quantities
	kindLink       = "LNK"  // listing links (channel, channel sku) -> product sku
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

func linkKey(account, channel, sku string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindLink), store.Join(channel, store.KeyText(sku)))
}

// Listing partitions. Every one sorts its items by (ordered_at, seq).
func listPK(account, dim, value string) string {
	if dim == dimAll {
		return store.PK(account, kindList+"#all")
	}
	return store.PK(account, kindList+"#"+dim+"="+value)
}

func fulfillPK(account, warehouse string) string {
	return store.PK(account, kindFulfill+"#"+warehouse)
}

func unassignedPK(account string) string { return store.PK(account, kindUnassigned) }

// Listing dimensions: all orders, and one per status filter.
const (
	dimAll      = "all"
	dimStatus   = "st"
	dimPayment  = "pay"
	dimShipment = "ship"
)

// orderSK is the sort key of o in every listing partition.
func orderSK(o *Order) string { return store.Join(o.OrderedAt, seqText(o.Seq)) }

// indexItems returns the listing items o must have, by partition key: one
// in each listing partition it belongs to, one per warehouse it holds stock
// at while open, and one in the unassigned partition while it waits for
// stock. Each carries the statuses (so other filters apply to it) and the
// SKUs concerned.
func indexItems(account string, o *Order) map[string]map[string]types.AttributeValue {
	sk := orderSK(o)
	base := func(pk string) map[string]types.AttributeValue {
		item := store.Key(pk, sk)
		item["seq"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(o.Seq, 10)}
		item[dimStatus] = store.S(o.Status)
		item[dimPayment] = store.S(o.PaymentStatus)
		item[dimShipment] = store.S(o.ShipmentStatus)
		return item
	}
	out := map[string]map[string]types.AttributeValue{}
	for _, pk := range []string{
		listPK(account, dimAll, ""),
		listPK(account, dimStatus, o.Status),
		listPK(account, dimPayment, o.PaymentStatus),
		listPK(account, dimShipment, o.ShipmentStatus),
	} {
		out[pk] = base(pk)
	}
	if !o.open() {
		return out
	}
	for _, wh := range o.allocationWarehouses() {
		pk := fulfillPK(account, wh)
		out[pk] = base(pk)
		out[pk]["skus"] = &types.AttributeValueMemberSS{Value: o.allocatedAt(wh)}
	}
	if skus := o.needs(); len(skus) > 0 {
		pk := unassignedPK(account)
		out[pk] = base(pk)
		out[pk]["skus"] = &types.AttributeValueMemberSS{Value: skus}
	}
	return out
}
