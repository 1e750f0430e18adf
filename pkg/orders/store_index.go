package orders

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// The index items of the orders (docs/data-model.md): small items in the base table, one per partition an
// order belongs to, sorted by (ordered_at, seq). The lists by status, the
// fulfillments and the queue of orders waiting for stock are Queries over
// them (the list of all orders is GSI1, the order items themselves); an
// order's save writes them with the order, and the counts of the lists
// with them (indexWrites).

// Index dimensions: one per status filter.
const (
	dimStatus   = "st"
	dimPayment  = "pay"
	dimShipment = "ship"
)

// indexPK is the index partition of the orders whose dim is value.
func indexPK(account, dim, value string) string {
	return store.PK(account, kindIndex+"#"+dim+"="+value)
}

func fulfillPK(account, warehouse string) string {
	return store.PK(account, kindFulfill+"#"+warehouse)
}

// unassignedPK is the partition of the open orders waiting for stock of
// many SKUs (more than maxWaitItems), each item listing them.
func unassignedPK(account string) string { return store.PK(account, kindUnassigned) }

// waitingPK is the partition of the open orders waiting for stock of sku
// (those waiting for a few SKUs have one item in each). It ends with the
// separator, so that no SKU makes it end like another kind's partition (the
// stream's filters match partition key suffixes).
func waitingPK(account, sku string) string {
	return store.PK(account, kindUnassigned+"#"+store.Join(store.KeyText(sku), ""))
}

// An order waiting for at most maxWaitItems SKUs has one index item per SKU;
// past that, or when so many items would leave a save little room for
// reservation changes beside its index and count changes (see save and
// firstStep), it has one in unassignedPK.
const (
	maxWaitItems  = 8
	maxIndexItems = (maxTxItems - 2) / 3
)

// orderSK is the sort key of o in every index partition.
func orderSK(o *Order) string { return store.Join(o.OrderedAt, seqText(o.Seq)) }

// indexItems returns the index items o must have, by partition key: one
// in each list partition it belongs to, one per warehouse it holds stock
// at while open, and while it waits for stock one per SKU it waits for (or
// one in the unassigned partition, see maxWaitItems). Each carries the
// statuses (so other filters apply to it) and, in partitions of many SKUs,
// the SKUs concerned.
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
	skus := o.needs()
	switch {
	case len(skus) == 0:
	case len(skus) <= maxWaitItems && len(out)+len(skus) <= maxIndexItems:
		for _, sku := range skus {
			pk := waitingPK(account, sku)
			out[pk] = base(pk)
		}
	default:
		pk := unassignedPK(account)
		out[pk] = base(pk)
		out[pk]["skus"] = &types.AttributeValueMemberSS{Value: skus}
	}
	return out
}

// indexWrites returns the writes that take cur's index items and counts
// (none when cur is nil) to next's.
func indexWrites(account string, cur, next *Order) []store.Write {
	return append(indexDiff(account, cur, next), countDiff(cur, next).Writes(account)...)
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

// onIndex turns in, an indexQuery without projection, into the same Query
// of the GSI index (GSI1 or GSI2), whose items are whole orders: the index
// projects every attribute, so a page is one Query.
func onIndex(in *dynamodb.QueryInput, index string) {
	pk, sk := store.AttrGSI1PK, store.AttrGSI1SK
	if index == store.GSI2 {
		pk, sk = store.AttrGSI2PK, store.AttrGSI2SK
	}
	in.IndexName = aws.String(index)
	in.KeyConditionExpression = aws.String(pk + " = :pk AND " + sk + " BETWEEN :lo AND :hi")
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
	items, err := queryIndexItems(ctx, t, indexQuery(t, pk, skMin, skMax, forward, f))
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(items))
	for i, it := range items {
		if out[i], err = itemSeq(it); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// queryIndexItems returns every item in reads, strongly consistent: it
// sees the writes that came just before.
func queryIndexItems(ctx context.Context, t store.Table, in *dynamodb.QueryInput) ([]map[string]types.AttributeValue, error) {
	in.ConsistentRead = aws.Bool(true)
	var out []map[string]types.AttributeValue
	for {
		res, err := t.DB.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", aws.ToString(in.KeyConditionExpression), err)
		}
		out = append(out, res.Items...)
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

// waitReaders is how many partitions of waiting orders waitingFor reads at
// once.
const waitReaders = 8

// waitingFor returns the open orders with unassigned quantities of any of
// skus, oldest first, and the SKUs of skus they wait for: one strongly
// consistent Query of each SKU's partition (up to waitReaders at once) and
// one of the partition of orders waiting for many SKUs, filtered on skus.
// No SKUs, no reads.
func waitingFor(ctx context.Context, t store.Table, account string, skus []string) ([]int64, []string, error) {
	if len(skus) == 0 {
		return nil, nil, nil
	}
	var (
		mu     sync.Mutex
		bySK   = map[string]int64{}
		waited = map[string]bool{}
	)
	read := func(in *dynamodb.QueryInput, skusOf func(map[string]types.AttributeValue) []string) error {
		items, err := queryIndexItems(ctx, t, in)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		for _, it := range items {
			seq, err := itemSeq(it)
			if err != nil {
				return err
			}
			bySK[sk(it)] = seq
			for _, s := range skusOf(it) {
				waited[s] = true
			}
		}
		return nil
	}
	many := indexQuery(t, unassignedPK(account), skMin, skMax, true, containsAny("skus", skus))
	many.ProjectionExpression = aws.String("PK, SK, #seq, #skus")
	errs := []error{read(many, func(it map[string]types.AttributeValue) []string {
		set, _ := it["skus"].(*types.AttributeValueMemberSS)
		if set == nil {
			return nil
		}
		return slices.DeleteFunc(slices.Clone(set.Value), func(s string) bool { return !slices.Contains(skus, s) })
	})}
	var wg sync.WaitGroup
	sem := make(chan struct{}, waitReaders)
	perSKU := make([]error, len(skus))
	for i, s := range skus {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			in := indexQuery(t, waitingPK(account, s), skMin, skMax, true, nil)
			perSKU[i] = read(in, func(map[string]types.AttributeValue) []string { return []string{s} })
		})
	}
	wg.Wait()
	if err := errors.Join(append(errs, perSKU...)...); err != nil {
		return nil, nil, fmt.Errorf("read orders waiting for stock: %w", err)
	}
	out := make([]int64, 0, len(bySK))
	for _, k := range slices.Sorted(maps.Keys(bySK)) {
		out = append(out, bySK[k])
	}
	return out, slices.Sorted(maps.Keys(waited)), nil
}

// sk is the sort key of an item.
func sk(item map[string]types.AttributeValue) string {
	s, _ := item[store.AttrSK].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
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
