package store

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Counts are the exact sizes of lists, for Total-Pages: one small item per
// account, list and filter value (<acct>#CNT / <list>␟<value>, attribute
// n or the CountName's Attr), changed by the same Commit that adds an item to the list or removes
// one, so a count is never off by a write that was lost or half done
// (docs/data-model.md). Each write of a count item also adds 1 to its
// version v, which tells the pager that cursors written before are stale.
const countKind = "CNT"

// CountAll is the filter value of a list's count without a filter.
const CountAll = "all"

// CountName names one count: the list (a domain's name for it, such as
// "orders") and the filter value it counts (CountAll for the whole list,
// else whatever the domain writes, such as "st=open"), which make its
// item's key, and its attribute in the item (Attr; "n" when empty). Counts
// that change together may share an item under different attributes, so
// that a transaction writes one item for all of them.
type CountName struct {
	List, Value string
	Attr        string // letters, digits and _ only
}

// CountPer is the count of the items of list that belong to the resource
// id (a uuid, such as a channel's or a warehouse's): an attribute of the
// list's item (prefix, "_" and id's hex digits), so that a write changing
// the whole list's count and one resource's writes one count item.
func CountPer(list, prefix, id string) CountName {
	return CountName{List: list, Value: CountAll, Attr: prefix + "_" + strings.ReplaceAll(id, "-", "")}
}

// attr is the count's attribute.
func (c CountName) attr() string {
	if c.Attr == "" {
		return "n"
	}
	return c.Attr
}

// key is the count's item key.
func (c CountName) key(account string) map[string]types.AttributeValue {
	return Key(PK(account, countKind), Join(c.List, c.Value))
}

// Counts accumulates the changes one Commit makes to counts, so that each
// count is one write of it however many of its items change.
type Counts map[CountName]int64

// Add adds delta to the count name.
func (c Counts) Add(name CountName, delta int64) { c[name] += delta }

// Writes are the count updates of the account (ADD), one per count item
// that changes, for the Commit that makes the changes.
func (c Counts) Writes(account string) []Write {
	items := map[CountName]*Update{} // by item: List and Value
	var order []CountName
	for _, name := range slices.SortedFunc(maps.Keys(c), compareCounts) {
		d := c[name]
		if d == 0 {
			continue
		}
		item := CountName{List: name.List, Value: name.Value}
		u := items[item]
		if u == nil {
			u = &Update{Add: []string{"#v :one"}}
			u.Value(":one", N(1))
			items[item] = u
			order = append(order, item)
		}
		u.Add = append(u.Add, "#"+name.attr()+" :"+name.attr())
		u.Value(":"+name.attr(), N(d))
	}
	out := make([]Write, len(order))
	for i, item := range order {
		out[i] = items[item].Write(item.key(account))
	}
	return out
}

// compareCounts orders counts by list, value and attribute, so that the
// writes of a Commit come in one order.
func compareCounts(a, b CountName) int {
	return cmp.Or(strings.Compare(a.List, b.List), strings.Compare(a.Value, b.Value), strings.Compare(a.attr(), b.attr()))
}

// Count reads the count name of the account: 0 when no write ever counted
// anything in it (eventually consistent).
func (t Table) Count(ctx context.Context, account string, name CountName) (int64, error) {
	return t.count(ctx, account, name, false)
}

// count reads the count name of the account, strongly consistent if
// consistent.
func (t Table) count(ctx context.Context, account string, name CountName, consistent bool) (int64, error) {
	img, err := t.Item(ctx, name.key(account), consistent)
	if err != nil {
		return 0, fmt.Errorf("count %s %s: %w", name.List, name.Value, err)
	}
	return img.Int(name.attr()), nil
}

// SetCounts sets the counts of the account to the values of want: the
// recount of lists written before their counts existed, or whose counts
// went wrong. It reads each count (strongly consistent, so that a run right
// after another sees its writes) and adds the difference with
// Counts.Writes, so every count item that changes moves its version on and
// the cursors written before are dropped; the writes are committed in
// transactions of at most MaxWrites. The counts are exact only if nothing
// changes them while it runs; running it again is harmless, and repairs
// what a failure half-way left.
func (t Table) SetCounts(ctx context.Context, account string, want Counts) error {
	fix := Counts{}
	for name, n := range want {
		got, err := t.count(ctx, account, name, true)
		if err != nil {
			return err
		}
		fix.Add(name, n-got)
	}
	for writes := fix.Writes(account); len(writes) > 0; {
		n := min(len(writes), MaxWrites)
		if err := t.Commit(ctx, writes[:n]); err != nil {
			return fmt.Errorf("set the counts: %w", err)
		}
		writes = writes[n:]
	}
	return nil
}

// CountQuery counts the items the Query in selects (its FilterExpression
// applied) with Select COUNT, reading at most maxCalls pages of up to 1 MB
// each: the bounded count of a list by a range filter, whose cost is the
// capacity of the items it reads. ok is false when the bound came first.
func (t Table) CountQuery(ctx context.Context, in dynamodb.QueryInput, maxCalls int) (n int64, ok bool, err error) {
	in.TableName = t.TableName()
	in.Select = types.SelectCount
	in.ProjectionExpression = nil
	in.ExpressionAttributeNames = withUsedNames(&in, nil)
	in.Limit = nil
	for range maxCalls {
		out, err := t.DB.Query(ctx, &in)
		if err != nil {
			return 0, false, fmt.Errorf("count query: %w", err)
		}
		n += int64(out.Count)
		if len(out.LastEvaluatedKey) == 0 {
			return n, true, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return n, false, nil
}

// maxCountCalls bounds a range filter's count: 4 calls of up to 1 MB read
// each (at most 512 RCU, eventually consistent).
const maxCountCalls = 4

// countInput is the Query of a page query for its bounded count.
func countInput(q PageQuery) dynamodb.QueryInput {
	in := q.Input
	in.ExclusiveStartKey = nil
	in.ConsistentRead = aws.Bool(false)
	return in
}
