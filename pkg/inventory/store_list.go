package inventory

import (
	"context"
	"fmt"
	"math"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// source is one Query a listing reads: in (sku, warehouse) order unless
// sorted is false; exact when every item it returns passes the filter, so a
// Limit can bound it.
type source struct {
	in     *dynamodb.QueryInput
	sorted bool
	exact  bool
}

// sources plans the Queries of a listing, most selective first: one per
// SKU on the table; else a range of GSI2 by updated_at (not in SKU order);
// else one warehouse's records on GSI1; else the account's partition.
func (f Filter) sources(t store.Table, account string) []source {
	q := func(index, cond string, values map[string]types.AttributeValue) *dynamodb.QueryInput {
		in := &dynamodb.QueryInput{
			TableName: t.TableName(), KeyConditionExpression: aws.String(cond),
			ExpressionAttributeNames: store.Names(cond), ExpressionAttributeValues: values,
		}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		return in
	}
	switch {
	case f.SKUs != nil:
		out := make([]source, len(f.SKUs))
		for i, sku := range f.SKUs {
			cond, prefix := "#PK = :pk AND begins_with(#SK, :sk)", sortKey(sku, "")
			if f.Warehouse != "" {
				cond, prefix = "#PK = :pk AND #SK = :sk", sortKey(sku, f.Warehouse)
			}
			out[i] = source{in: q("", cond, map[string]types.AttributeValue{
				":pk": store.S(pk(account)), ":sk": store.S(prefix),
			}), sorted: true, exact: !f.Created.Active() && !f.Updated.Active()}
		}
		return out
	case f.Updated.Active():
		cond, values := "#GSI2PK = :pk", map[string]types.AttributeValue{":pk": store.S(byUpdatePK(account))}
		var bounds []string
		if f.Updated.Min != nil {
			values[":min"] = store.S(isotime.Format(*f.Updated.Min))
			bounds = append(bounds, "#GSI2SK >= :min")
		}
		if f.Updated.Max != nil {
			values[":max"] = store.S(isotime.Format(*f.Updated.Max))
			bounds = append(bounds, "#GSI2SK <= :max")
		}
		if len(bounds) == 2 {
			bounds = []string{"#GSI2SK BETWEEN :min AND :max"}
		}
		return []source{{in: q(store.GSI2, cond+" AND "+bounds[0], values)}}
	case f.Warehouse != "":
		return []source{{in: q(store.GSI1, "#GSI1PK = :pk", map[string]types.AttributeValue{
			":pk": store.S(byWarehousePK(account, f.Warehouse)),
		}), sorted: true, exact: !f.Created.Active()}}
	default:
		return []source{{in: q("", "#PK = :pk", map[string]types.AttributeValue{
			":pk": store.S(pk(account)),
		}), sorted: true, exact: !f.Created.Active()}}
	}
}

// read adds the matching records of one source; done is false when a
// sorted source stopped early because the records up to need are read.
func (l *Listing) read(ctx context.Context, t store.Table, f Filter, src source, need int) (done bool, err error) {
	in := *src.in
	for {
		if src.sorted && len(l.Records) >= need {
			return false, nil
		}
		if src.exact {
			in.Limit = aws.Int32(int32(min(need-len(l.Records), math.MaxInt32)))
		}
		out, err := t.DB.Query(ctx, &in)
		if err != nil {
			return false, fmt.Errorf("query inventory: %w", err)
		}
		var recs []Record
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &recs); err != nil {
			return false, fmt.Errorf("unmarshal inventory: %w", err)
		}
		for _, rec := range recs {
			l.warehouseSeen = l.warehouseSeen || rec.Warehouse == f.Warehouse
			if f.Match(rec) {
				l.Records = append(l.Records, rec)
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return true, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}
