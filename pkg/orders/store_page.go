package orders

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// listQuery is a list request over one index partition, without its page:
// the orders between two sort keys that pass a filter.
type listQuery struct {
	account string
	pk      string
	lo, hi  string
	filter  *filter
	// changed: the query is of GSI2, the orders by updated_at (changedQuery),
	// whose items are the orders themselves.
	changed bool
}

// orderQuery is the list of the account's orders that f selects: the
// index partition of its first status filter (so page 1 costs the same
// whatever the account's size), the others applied as filters. Nil is an
// empty result (an empty time range).
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
		default:
			rest = append(rest, equals(d.dim, d.value))
		}
	}
	if l.pk == "" {
		l.pk = indexPK(account, dimAll, "")
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
	return l
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
	return &listQuery{account: account, pk: changedPK(account), lo: lo, hi: hi, changed: true,
		filter: and(equals("sb_status", f.Status), equals("sb_payment_status", f.PaymentStatus),
			equals("shipment_status", f.ShipmentStatus), ordered)}
}

// key identifies the list query (without the page) for the cursor cache.
func (l listQuery) key(limit int) string {
	k := l.pk + "|" + l.lo + "|" + l.hi + "|" + strconv.Itoa(limit)
	if l.changed {
		k += "|changed"
	}
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

// page returns the items on page p of the list query, in sort key order:
// index items, or orders for a changedQuery. A page starts where the
// previous one ended: sequential paging reads each page once (the previous
// request left its end in the cursor cache); a jump to page P reads only the
// keys of the pages it skips.
func (l listQuery) page(ctx context.Context, t store.Table, p paging.Page) ([]map[string]types.AttributeValue, error) {
	ck := l.key(p.Limit)
	from, start := cursors.nearest(l.account, ck, p.Number)
	start, ok, err := l.walk(ctx, t, start, (p.Number-from)*p.Limit, nil)
	if err != nil || !ok {
		return nil, err
	}
	items := make([]map[string]types.AttributeValue, 0, p.Limit)
	end, full, err := l.walk(ctx, t, start, p.Limit, &items)
	if err != nil {
		return nil, err
	}
	if full && len(end) > 0 {
		cursors.put(l.account, ck, p.Number+1, end)
	}
	return items, nil
}

// seqs returns the seqs on page p of an index partition's list query.
func (l listQuery) seqs(ctx context.Context, t store.Table, p paging.Page) ([]int64, error) {
	items, err := l.page(ctx, t, p)
	if err != nil {
		return nil, err
	}
	out := make([]int64, 0, len(items))
	for _, it := range items {
		seq, err := itemSeq(it)
		if err != nil {
			return nil, err
		}
		out = append(out, seq)
	}
	return out, nil
}

// walk reads n matching items after start (nil: from the beginning),
// appending them to items if given (else reading keys only). It returns
// the key of the last item read and whether n items were found.
func (l listQuery) walk(ctx context.Context, t store.Table, start map[string]types.AttributeValue, n int, items *[]map[string]types.AttributeValue) (map[string]types.AttributeValue, bool, error) {
	if n == 0 {
		return start, true, nil
	}
	in := indexQuery(t, l.pk, l.lo, l.hi, true, l.filter)
	keys := []string{store.AttrPK, store.AttrSK}
	if l.changed {
		changedIndex(in)
		keys = append(keys, store.AttrGSI2PK, store.AttrGSI2SK)
	}
	if items == nil {
		in.ProjectionExpression = aws.String(strings.Join(keys, ", "))
		delete(in.ExpressionAttributeNames, "#seq")
		if len(in.ExpressionAttributeNames) == 0 {
			in.ExpressionAttributeNames = nil
		}
	}
	in.ExclusiveStartKey = start
	last := start
	for got := 0; got < n; {
		in.Limit = aws.Int32(int32(min(n-got, math.MaxInt32)))
		res, err := t.DB.Query(ctx, in)
		if err != nil {
			return nil, false, fmt.Errorf("query %s: %w", l.pk, err)
		}
		for _, it := range res.Items {
			if items != nil {
				*items = append(*items, it)
			}
			last = map[string]types.AttributeValue{}
			for _, k := range keys {
				last[k] = it[k]
			}
			got++
		}
		if len(res.LastEvaluatedKey) == 0 {
			return last, got == n, nil
		}
		in.ExclusiveStartKey = res.LastEvaluatedKey
		if got == n {
			break
		}
	}
	return last, true, nil
}

// The cursor cache is the storage side's paging state: the key where a
// page starts, remembered by the request that read the page before it.

// cursorTTL bounds how long a page boundary is trusted: within it, orders
// imported by other processes may shift later pages by their number.
const cursorTTL = time.Minute

// maxCursors bounds the cache; it is cleared when full.
const maxCursors = 10000

// cursorCache remembers where pages start, per account, list query and page.
type cursorCache struct {
	mu sync.Mutex
	m  map[string]map[string]cursor // account -> query|page -> cursor
	n  int
}

type cursor struct {
	key map[string]types.AttributeValue
	at  time.Time
}

var cursors = &cursorCache{m: map[string]map[string]cursor{}}

// nearest returns the highest page <= page whose start is known, and that
// start (page 1 starts at nil).
func (c *cursorCache) nearest(account, query string, page int) (int, map[string]types.AttributeValue) {
	c.mu.Lock()
	defer c.mu.Unlock()
	acc := c.m[account]
	for p := page; p > 1 && acc != nil; p-- {
		cur, ok := acc[query+"|"+strconv.Itoa(p)]
		if ok && time.Since(cur.at) < cursorTTL {
			return p, cur.key
		}
		if page-p > 50 {
			break
		}
	}
	return 1, nil
}

func (c *cursorCache) put(account, query string, page int, key map[string]types.AttributeValue) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n >= maxCursors {
		c.m, c.n = map[string]map[string]cursor{}, 0
	}
	if c.m[account] == nil {
		c.m[account] = map[string]cursor{}
	}
	c.m[account][query+"|"+strconv.Itoa(page)] = cursor{key: key, at: time.Now()}
	c.n++
}

// forget drops the account's cursors: its orders changed.
func (c *cursorCache) forget(account string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n -= len(c.m[account])
	delete(c.m, account)
}

// list returns page p of the orders f selects: by updated_at, one Query of
// GSI2; else the page of an index partition and one BatchGetItem of its
// orders.
func (s Service) list(ctx context.Context, account string, f Filter, p paging.Page) ([]Order, error) {
	if f.UpdatedAt.Active() {
		l := changedQuery(account, f)
		if l == nil {
			return []Order{}, nil
		}
		items, err := l.page(ctx, s.Table, p)
		if err != nil {
			return nil, err
		}
		out := make([]Order, 0, len(items))
		for _, it := range items {
			o, err := decodeOrder(it)
			if err != nil {
				return nil, err
			}
			out = append(out, *o)
		}
		return out, nil
	}
	l := orderQuery(account, f)
	if l == nil {
		return []Order{}, nil
	}
	seqs, err := l.seqs(ctx, s.Table, p)
	if err != nil {
		return nil, err
	}
	return getMany(ctx, s.Table, account, seqs)
}
