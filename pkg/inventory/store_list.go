package inventory

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// query is a Query of the table or of an index by its key condition.
func query(index, cond string, values map[string]types.AttributeValue) dynamodb.QueryInput {
	in := dynamodb.QueryInput{
		KeyConditionExpression: aws.String(cond), ExpressionAttributeNames: store.Names(cond),
		ExpressionAttributeValues: values,
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return in
}

// pageQuery is the list f selects as one Query in (sku, warehouse) order,
// for store.Table.Page: the account's partition, or one warehouse's records
// on GSI1 (in SKU order), each with its exact count; a created_at range
// filters either, with a bounded count. ok is false for the sku and
// updated_at filters, which listAll reads.
func (f Filter) pageQuery(account string) (store.PageQuery, bool) {
	if f.SKUs != nil || f.Updated.Active() {
		return store.PageQuery{}, false
	}
	q := store.PageQuery{Account: account, List: countList, Count: &allCount,
		Input: query("", "#PK = :pk", map[string]types.AttributeValue{":pk": store.S(pk(account))})}
	if f.Warehouse != "" {
		// The list's name holds the warehouse: every warehouse's count is
		// an attribute of one item (store.CountPer), so the count's name
		// does not tell them apart, and lists of the same name share cursors.
		c := warehouseCount(f.Warehouse)
		q.List, q.Count = countList+" wh "+f.Warehouse, &c
		q.Input = query(store.GSI1, "#GSI1PK = :pk", map[string]types.AttributeValue{
			":pk": store.S(byWarehousePK(account, f.Warehouse)),
		})
	}
	if f.Created.Active() {
		filter, values := timeRange(attrCreatedAt, f.Created)
		q.List += " created"
		for _, k := range []string{":min", ":max"} {
			if v, ok := values[k].(*types.AttributeValueMemberS); ok {
				q.List += " " + k + v.Value
			}
		}
		q.Count, q.Bounded = nil, true
		q.Input.FilterExpression = aws.String(filter)
		q.Input.ExpressionAttributeNames = store.Names(aws.ToString(q.Input.KeyConditionExpression), filter)
		for k, v := range values {
			q.Input.ExpressionAttributeValues[k] = v
		}
	}
	return q, true
}

// timeRange is the condition that the stored time attr lies in r (active),
// with its values :min and :max.
func timeRange(attr string, r isotime.Range) (string, map[string]types.AttributeValue) {
	values := map[string]types.AttributeValue{}
	var bounds []string
	if r.Min != nil {
		values[":min"] = store.S(isotime.Format(*r.Min))
		bounds = append(bounds, "#"+attr+" >= :min")
	}
	if r.Max != nil {
		values[":max"] = store.S(isotime.Format(*r.Max))
		bounds = append(bounds, "#"+attr+" <= :max")
	}
	if len(bounds) == 2 {
		bounds = []string{"#" + attr + " BETWEEN :min AND :max"}
	}
	return bounds[0], values
}

// sources are the Queries listAll reads: one per SKU on the table (the
// record itself with a warehouse), else a range of GSI2 by updated_at.
func (f Filter) sources(account string) []dynamodb.QueryInput {
	if f.SKUs == nil {
		cond, values := timeRange(store.AttrGSI2SK, f.Updated)
		values[":pk"] = store.S(byUpdatePK(account))
		return []dynamodb.QueryInput{query(store.GSI2, "#GSI2PK = :pk AND "+cond, values)}
	}
	out := make([]dynamodb.QueryInput, len(f.SKUs))
	for i, sku := range f.SKUs {
		cond, prefix := "#PK = :pk AND begins_with(#SK, :sk)", sortKey(sku, "")
		if f.Warehouse != "" {
			cond, prefix = "#PK = :pk AND #SK = :sk", sortKey(sku, f.Warehouse)
		}
		out[i] = query("", cond, map[string]types.AttributeValue{":pk": store.S(pk(account)), ":sk": store.S(prefix)})
	}
	return out
}

// listAll reads every record that matches f by the sku or updated_at
// filter, in (sku, warehouse) order: each SKU's records (at most
// paging.MaxLimit Queries), or the updated_at range of GSI2 (in time order,
// sorted here), the other filters applied to what is read.
func (f Filter) listAll(ctx context.Context, t store.Table, account string) ([]Record, error) {
	var out []Record
	for _, in := range f.sources(account) {
		items, err := t.QueryUpTo(ctx, in, math.MaxInt)
		if err != nil {
			return nil, fmt.Errorf("query inventory: %w", err)
		}
		var recs []Record
		if err := attributevalue.UnmarshalListOfMaps(items, &recs); err != nil {
			return nil, fmt.Errorf("unmarshal inventory: %w", err)
		}
		for _, rec := range recs {
			if f.Match(rec) {
				out = append(out, rec)
			}
		}
	}
	slices.SortFunc(out, func(a, b Record) int { return strings.Compare(recordKey(a), recordKey(b)) })
	return out, nil
}

// pageOf reads page p of the records q lists (store.Table.PageOf: one
// Query), the size of the list and the next page's cursor.
func pageOf(ctx context.Context, t store.Table, q store.PageQuery, p paging.Page) ([]Record, int, *paging.Cursor, error) {
	out, err := t.PageOf(ctx, q, p)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("list inventory: %w", err)
	}
	var recs []Record
	if err := attributevalue.UnmarshalListOfMaps(out.Items, &recs); err != nil {
		return nil, 0, nil, fmt.Errorf("unmarshal inventory: %w", err)
	}
	return recs, int(out.Total), out.Next, nil
}

// countList is the name of the inventory records' counts (store.Counts):
// one for the whole list and one per warehouse, in one item, so that a
// creation writes one count item. Records are never deleted, so only a
// creation changes them.
const countList = "inventory"

// allCount is the count of the account's records.
var allCount = store.CountName{List: countList, Value: store.CountAll}

// warehouseCount is the count of one warehouse's records.
func warehouseCount(warehouse string) store.CountName {
	return store.CountPer(countList, "wh", warehouse)
}

// created are the count changes of new records at the warehouses.
func created(warehouses ...string) store.Counts {
	c := store.Counts{}
	for _, w := range warehouses {
		c.Add(allCount, 1)
		c.Add(warehouseCount(w), 1)
	}
	return c
}
