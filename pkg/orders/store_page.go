package orders

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// listQuery is a list request without its page, for store.Table.Page: the
// orders between two sort keys of one partition that pass a filter, and
// how the list is counted.
type listQuery struct {
	account string
	pk      string
	lo, hi  string
	filter  *filter
	// index is the GSI the list is a Query of, whose items are the orders
	// themselves (GSI1: every order by ordered_at; GSI2: by updated_at);
	// "" for an index partition of the base table, whose items are index
	// items (a page of them, then one BatchGetItem of the orders).
	index string
	// count is the list's exact count; nil when the list is filtered by a
	// range or by two filters at once, then counted Bounded.
	count *store.CountName
}

// orderQuery is the list of the account's orders that f selects: with no
// status filter GSI1, the orders themselves; else the index partition of
// its first status filter (so page 1 costs the same whatever the account's
// size), the others applied as filters. Nil is an empty result (an empty
// time range).
func orderQuery(account string, f Filter) *listQuery {
	l := timeRange(account, f)
	if l == nil {
		return nil
	}
	dims := []struct{ dim, value string }{{dimShipment, f.ShipmentStatus}, {dimPayment, f.PaymentStatus}, {dimStatus, f.Status}}
	var rest []*filter
	for _, d := range dims {
		switch {
		case d.value == "":
		case l.pk == "":
			l.pk = indexPK(account, d.dim, d.value)
			l.count = countOf(f, statusCount(d.dim, d.value))
		default:
			rest = append(rest, equals(d.dim, d.value))
			l.count = nil
		}
	}
	if l.pk == "" {
		l.pk, l.index = allPK(account), store.GSI1
		l.count = countOf(f, store.CountName{List: countOrders, Value: store.CountAll})
	}
	l.filter = and(rest...)
	return l
}

// fulfillmentQuery is the list of the open orders allocated at wh
// that f selects (its sb_status is the caller's to check). Nil is an empty
// result (an empty time range).
func fulfillmentQuery(account, wh string, f Filter) *listQuery {
	l := timeRange(account, f)
	if l == nil {
		return nil
	}
	l.pk = fulfillPK(account, wh)
	l.filter = and(equals(dimPayment, f.PaymentStatus), equals(dimShipment, f.ShipmentStatus))
	if l.filter == nil {
		l.count = countOf(f, store.CountName{List: countFulfill, Value: wh})
	}
	return l
}

// countOf is name, the count of a list without a range, if f has no
// ordered_at range (else nil: the range is counted Bounded).
func countOf(f Filter, name store.CountName) *store.CountName {
	if f.OrderedAt.Active() {
		return nil
	}
	return &name
}

// keyRange is the range of sort keys (<time>␟<seq>) whose time r covers;
// ok is false when it covers none.
func keyRange(r isotime.Range) (lo, hi string, ok bool) {
	lo, hi = skMin, skMax
	if r.Min != nil {
		lo = isotime.Format(*r.Min)
	}
	if r.Max != nil {
		hi = isotime.Format(*r.Max) + store.Sep + "999999999999"
	}
	return lo, hi, lo <= hi
}

// timeRange is a list query of the sort keys f's ordered_at range covers, nil
// when it covers none.
func timeRange(account string, f Filter) *listQuery {
	lo, hi, ok := keyRange(f.OrderedAt)
	if !ok {
		return nil
	}
	return &listQuery{account: account, lo: lo, hi: hi}
}

// changedQuery is the list of the account's orders that f selects by its
// updated_at range: a key range of GSI2, where every order item is keyed
// (updated_at, seq), with the other filters applied to the order items.
func changedQuery(account string, f Filter) *listQuery {
	lo, hi, ok := keyRange(f.UpdatedAt)
	if !ok {
		return nil
	}
	var ordered *filter
	if f.OrderedAt.Active() {
		// ordered_at compared with the bounds of its own keys: a time sorts
		// before the same time followed by ␟ and digits.
		olo, ohi, ok := keyRange(f.OrderedAt)
		if !ok {
			return nil
		}
		ordered = &filter{
			expr:   "#ordered_at BETWEEN :ordered_lo AND :ordered_hi",
			names:  map[string]string{"#ordered_at": "ordered_at"},
			values: map[string]types.AttributeValue{":ordered_lo": store.S(olo), ":ordered_hi": store.S(ohi)},
		}
	}
	return &listQuery{account: account, pk: changedPK(account), lo: lo, hi: hi, index: store.GSI2,
		filter: and(equals("sb_status", f.Status), equals("sb_payment_status", f.PaymentStatus),
			equals("shipment_status", f.ShipmentStatus), ordered)}
}

// input is the list's Query, eventually consistent: of the index
// partition's items, or of the orders in a GSI. It reads whole items: a
// projection would cost the same read units.
func (l listQuery) input(t store.Table) dynamodb.QueryInput {
	in := indexQuery(t, l.pk, l.lo, l.hi, true, l.filter)
	in.ConsistentRead, in.ProjectionExpression = nil, nil
	delete(in.ExpressionAttributeNames, "#seq")
	if len(in.ExpressionAttributeNames) == 0 {
		in.ExpressionAttributeNames = nil
	}
	if l.index != "" {
		onIndex(in, l.index)
	}
	return *in
}

// text names the list and its filters: the partition, the sort key range,
// the index and the filter with its values (store.PageQuery.List).
func (l listQuery) text() string {
	k := l.pk + "|" + l.lo + "|" + l.hi + "|" + l.index
	if l.filter != nil {
		k += "|" + l.filter.expr
		for _, name := range slices.Sorted(maps.Keys(l.filter.values)) {
			if s, ok := l.filter.values[name].(*types.AttributeValueMemberS); ok {
				k += "|" + name + "=" + s.Value
			}
		}
	}
	return k
}

// page returns page p of the list query, in sort key order (index items,
// or orders for a GSI's list), the list's size (-1 when not known) and the
// next page's cursor: store.Table.PageOf, one Query a page on any
// instance.
func (l listQuery) page(ctx context.Context, t store.Table, p paging.Page) (store.Page, error) {
	q := store.PageQuery{Account: l.account, List: l.text(), Input: l.input(t), Count: l.count, Bounded: l.count == nil}
	page, err := t.PageOf(ctx, q, p)
	if err != nil {
		return store.Page{}, fmt.Errorf("list %s: %w", strings.TrimPrefix(l.pk, l.account), err)
	}
	return page, nil
}

// orders returns page p of the list query's orders and the list's size
// (-1 when not known): the page's items, or for an index partition one
// BatchGetItem of the orders its items name.
func (l listQuery) orders(ctx context.Context, t store.Table, p paging.Page) (paging.Listing[Order], error) {
	page, err := l.page(ctx, t, p)
	if err != nil {
		return paging.Listing[Order]{}, err
	}
	out := paging.Listing[Order]{Total: int(page.Total), Next: page.Next, Items: make([]Order, 0, len(page.Items))}
	if l.index != "" {
		for _, it := range page.Items {
			o, err := decodeOrder(it)
			if err != nil {
				return paging.Listing[Order]{}, err
			}
			out.Items = append(out.Items, *o)
		}
		return out, nil
	}
	seqs := make([]int64, 0, len(page.Items))
	for _, it := range page.Items {
		seq, err := itemSeq(it)
		if err != nil {
			return paging.Listing[Order]{}, err
		}
		seqs = append(seqs, seq)
	}
	out.Items, err = getMany(ctx, t, l.account, seqs)
	return out, err
}

// list returns page p of the orders f selects: by updated_at, one Query of
// GSI2; with no status filter, one of GSI1; else the page of an index
// partition and one BatchGetItem of its orders.
func (s Service) list(ctx context.Context, account string, f Filter, p paging.Page) (paging.Listing[Order], error) {
	var l *listQuery
	if f.UpdatedAt.Active() {
		l = changedQuery(account, f)
	} else {
		l = orderQuery(account, f)
	}
	if l == nil {
		return paging.Listing[Order]{Items: []Order{}, Total: 0}, nil
	}
	return l.orders(ctx, s.Table, p)
}
