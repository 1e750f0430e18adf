package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Counts are the exact sizes of lists, for Total-Pages: one small item per
// account, list and filter value (<acct>#CNT / <list>␟<value>, attribute
// n), changed by the same Commit that adds an item to the list or removes
// one, so a count is never off by a write that was lost or half done
// (docs/data-model.md).
const countKind = "CNT"

// CountAll is the filter value of a list's count without a filter.
const CountAll = "all"

// CountName names one count: the list (a domain's name for it, such as
// "orders") and the filter value it counts (CountAll for the whole list,
// else whatever the domain writes, such as "st=open").
type CountName struct {
	List, Value string
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

// Writes are the count updates of the account (ADD n), one per count that
// changes, for the Commit that makes the changes.
func (c Counts) Writes(account string) []Write {
	var out []Write
	for name, d := range c {
		if d == 0 {
			continue
		}
		u := Update{Add: []string{"#n :d"}}
		u.Value(":d", N(d))
		out = append(out, u.Write(name.key(account)))
	}
	return out
}

// Count reads the count name of the account: 0 when no write ever counted
// anything in it (eventually consistent).
func (t Table) Count(ctx context.Context, account string, name CountName) (int64, error) {
	var c struct {
		N int64 `dynamodbav:"n"`
	}
	if _, err := t.Get(ctx, name.key(account), &c, false); err != nil {
		return 0, fmt.Errorf("count %s %s: %w", name.List, name.Value, err)
	}
	return c.N, nil
}

// CountQuery counts the items the Query in selects (its FilterExpression
// applied) with Select COUNT, reading at most maxCalls pages of up to 1 MB
// each: the bounded count of a list by a range filter, whose cost is the
// capacity of the items it reads. ok is false when the bound came first.
func (t Table) CountQuery(ctx context.Context, in dynamodb.QueryInput, maxCalls int) (n int64, ok bool, err error) {
	in.TableName = t.TableName()
	in.Select = types.SelectCount
	in.ProjectionExpression = nil
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
