package orders

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// filter is a FilterExpression over listing items.
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
		for k, v := range f.names {
			out.names[k] = v
		}
		for k, v := range f.values {
			out.values[k] = v
		}
	}
	return out
}

// equals is attr = value.
func equals(attr, value string) *filter {
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
	for k, v := range f.names {
		in.ExpressionAttributeNames[k] = v
	}
	for k, v := range f.values {
		in.ExpressionAttributeValues[k] = v
	}
}

// indexQuery is a Query over one listing partition between two sort keys.
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

// Sort-key bounds of a listing partition: every key starts with an RFC 3339
// time, and the seq part is at most 12 digits.
const (
	skMin = "0"
	skMax = "9999-12-31T23:59:59Z" + store.Sep + "999999999999"
)

// queryIndex returns every seq of a listing partition that passes f, oldest
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

// itemSeq reads the seq of a listing item.
func itemSeq(item map[string]types.AttributeValue) (int64, error) {
	n, ok := item["seq"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("listing item without seq")
	}
	seq, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("listing item seq %q: %w", n.Value, err)
	}
	return seq, nil
}
