package orders

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// The index items of the orders (docs/data-model.md): small items in the base table, one per partition an
// order belongs to, sorted by (ordered_at, seq). The lists, the
// fulfillments and the queue of orders waiting for stock are Queries over
// them; an order's save writes them with the order.

// Index dimensions: all orders, and one per status filter.
const (
	dimAll      = "all"
	dimStatus   = "st"
	dimPayment  = "pay"
	dimShipment = "ship"
)

// indexPK is the index partition of the orders whose dim is value.
func indexPK(account, dim, value string) string {
	if dim == dimAll {
		return store.PK(account, kindIndex+"#all")
	}
	return store.PK(account, kindIndex+"#"+dim+"="+value)
}

func fulfillPK(account, warehouse string) string {
	return store.PK(account, kindFulfill+"#"+warehouse)
}

func unassignedPK(account string) string { return store.PK(account, kindUnassigned) }

// orderSK is the sort key of o in every index partition.
func orderSK(o *Order) string { return store.Join(o.OrderedAt, seqText(o.Seq)) }

// indexItems returns the index items o must have, by partition key: one
// in each list partition it belongs to, one per warehouse it holds stock
// at while open, and one in the unassigned partition while it waits for
// stock. Each carries the statuses (so other filters apply to it) and the
// SKUs concerned.
func indexItems(account string, o *Order) map[string]map[string]types.AttributeValue {
	sk := orderSK(o)
	base := func(pk string) map[string]types.AttributeValue {
		item := store.Key(pk, sk)
		item["seq"] = store.N(o.Seq)
		item[dimStatus] = store.S(o.Status)
		item[dimPayment] = store.S(o.PaymentStatus)
		item[dimShipment] = store.S(o.ShipmentStatus)
		return item
	}
	out := map[string]map[string]types.AttributeValue{}
	for _, pk := range []string{
		indexPK(account, dimAll, ""),
		indexPK(account, dimStatus, o.Status),
		indexPK(account, dimPayment, o.PaymentStatus),
		indexPK(account, dimShipment, o.ShipmentStatus),
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

// indexDiff returns the writes that take cur's index items (none when cur
// is nil) to next's.
func indexDiff(account string, cur, next *Order) []store.Write {
	var old map[string]map[string]types.AttributeValue
	if cur != nil {
		old = indexItems(account, cur)
	}
	now := indexItems(account, next)
	var out []store.Write
	for _, pk := range slices.Sorted(maps.Keys(now)) {
		if !reflect.DeepEqual(old[pk], now[pk]) {
			out = append(out, store.Put(now[pk], "", nil))
		}
	}
	for _, pk := range slices.Sorted(maps.Keys(old)) {
		if _, ok := now[pk]; !ok {
			out = append(out, store.Delete(store.Key(pk, orderSK(cur)), "", nil))
		}
	}
	return out
}

// filter is a FilterExpression over index items.
type filter struct {
	expr   string
	names  map[string]string
	values map[string]types.AttributeValue
}

// and joins clauses; nil clauses are skipped and no clause is no filter.
func and(fs ...*filter) *filter {
	var out *filter
	for _, f := range fs {
		if f == nil {
			continue
		}
		if out == nil {
			out = &filter{names: map[string]string{}, values: map[string]types.AttributeValue{}}
		} else {
			out.expr += " AND "
		}
		out.expr += "(" + f.expr + ")"
		maps.Copy(out.names, f.names)
		maps.Copy(out.values, f.values)
	}
	return out
}

// equals is attr = value; nil (no clause) when value is "".
func equals(attr, value string) *filter {
	if value == "" {
		return nil
	}
	return &filter{
		expr:   "#" + attr + " = :" + attr,
		names:  map[string]string{"#" + attr: attr},
		values: map[string]types.AttributeValue{":" + attr: store.S(value)},
	}
}

// containsAny is true when the set attr holds any of vals.
func containsAny(attr string, vals []string) *filter {
	f := &filter{names: map[string]string{"#" + attr: attr}, values: map[string]types.AttributeValue{}}
	parts := make([]string, len(vals))
	for i, v := range vals {
		name := ":" + attr + strconv.Itoa(i)
		parts[i] = "contains(#" + attr + ", " + name + ")"
		f.values[name] = store.S(v)
	}
	f.expr = strings.Join(parts, " OR ")
	return f
}

// apply sets f on in.
func (f *filter) apply(in *dynamodb.QueryInput) {
	if f == nil {
		return
	}
	in.FilterExpression = aws.String(f.expr)
	maps.Copy(in.ExpressionAttributeNames, f.names)
	maps.Copy(in.ExpressionAttributeValues, f.values)
}

// indexQuery is a Query over one index partition between two sort keys.
func indexQuery(t store.Table, pk, lo, hi string, forward bool, f *filter) *dynamodb.QueryInput {
	in := &dynamodb.QueryInput{
		TableName:                t.TableName(),
		KeyConditionExpression:   aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
		ExpressionAttributeNames: map[string]string{"#seq": "seq"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(pk), ":lo": store.S(lo), ":hi": store.S(hi),
		},
		ProjectionExpression: aws.String("PK, SK, #seq"),
		ScanIndexForward:     aws.Bool(forward),
		ConsistentRead:       aws.Bool(true),
	}
	f.apply(in)
	return in
}

// changedPK is the GSI2 partition of the account's orders, sorted by
// (updated_at, seq): every order item carries its GSI2 key (orderItem).
func changedPK(account string) string { return store.PK(account, kindChanged) }

// changedIndex turns in, an indexQuery, into the same Query of GSI2, reading
// whole orders: the index projects every attribute, so a page is one Query.
// A GSI read is eventually consistent.
func changedIndex(in *dynamodb.QueryInput) {
	in.IndexName = aws.String(store.GSI2)
	in.KeyConditionExpression = aws.String("GSI2PK = :pk AND GSI2SK BETWEEN :lo AND :hi")
	in.ConsistentRead = nil
	in.ProjectionExpression = nil
	delete(in.ExpressionAttributeNames, "#seq")
	if len(in.ExpressionAttributeNames) == 0 {
		in.ExpressionAttributeNames = nil
	}
}

// Sort-key bounds of an index partition: every key starts with an RFC 3339
// time, and the seq part is at most 12 digits.
const (
	skMin = "0"
	skMax = "9999-12-31T23:59:59Z" + store.Sep + "999999999999"
)

// queryIndex returns every seq of an index partition that passes f, oldest
// first when forward.
func queryIndex(ctx context.Context, t store.Table, pk string, forward bool, f *filter) ([]int64, error) {
	in := indexQuery(t, pk, skMin, skMax, forward, f)
	in.ConsistentRead = aws.Bool(true) // sees the writes that came just before
	var out []int64
	for {
		res, err := t.DB.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", pk, err)
		}
		for _, it := range res.Items {
			seq, err := itemSeq(it)
			if err != nil {
				return nil, err
			}
			out = append(out, seq)
		}
		if len(res.LastEvaluatedKey) == 0 {
			return out, nil
		}
		in.ExclusiveStartKey = res.LastEvaluatedKey
	}
}

// itemSeq reads the seq of an index item (or of an idempotency key or the
// counter).
func itemSeq(item map[string]types.AttributeValue) (int64, error) {
	n, ok := item["seq"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("index item without seq")
	}
	seq, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("index item seq %q: %w", n.Value, err)
	}
	return seq, nil
}

// waitingFor returns the open orders with unassigned quantities of any of
// skus, oldest first.
func waitingFor(ctx context.Context, t store.Table, account string, skus []string) ([]int64, error) {
	return queryIndex(ctx, t, unassignedPK(account), true, containsAny("skus", skus))
}

// allocatedAtWarehouse returns the open orders allocated at wh, oldest
// first.
func allocatedAtWarehouse(ctx context.Context, t store.Table, account, wh string) ([]int64, error) {
	return queryIndex(ctx, t, fulfillPK(account, wh), true, nil)
}

// holdingAt returns the open orders allocated at wh that hold sku there,
// newest first.
func holdingAt(ctx context.Context, t store.Table, account, wh, sku string) ([]int64, error) {
	return queryIndex(ctx, t, fulfillPK(account, wh), false, containsAny("skus", []string{sku}))
}
