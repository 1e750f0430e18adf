package inventory

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// quantityUpdate is the write of a relative change of a record's
// quantities; every such change also moves updated_at (and its GSI2 copy).
func quantityUpdate(account, sku, warehouse, set, cond string, values map[string]types.AttributeValue) store.Write {
	values[":now"] = store.S(isotime.Format(time.Now()))
	u := store.Update{
		Set:       []string{set, "#updated_at = :now", "#GSI2SK = :now"},
		Condition: "attribute_exists(#PK) AND " + cond,
		Values:    values,
	}
	return u.Write(key(account, sku, warehouse))
}

// reserveWrite is Service.Reserve's write: it moves qty from available to reserved at (sku,
// warehouse): qty > 0 reserves under the condition available >= qty (and
// the record exists); qty < 0 releases -qty (condition reserved >= -qty).
func reserveWrite(account, sku, warehouse string, qty int) store.Write {
	values := map[string]types.AttributeValue{":q": store.N(int64(qty))}
	cond := "#available >= :q"
	if qty < 0 {
		values[":r"] = store.N(int64(-qty))
		cond = "#reserved >= :r"
	}
	return quantityUpdate(account, sku, warehouse,
		"#reserved = #reserved + :q, #available = #available - :q", cond, values)
}

// shipWrite is Service.Ship's write: it removes qty units from on_hand, of which
// fromReserved (<= qty) were reserved: on_hand -= qty, reserved -=
// fromReserved, available -= qty - fromReserved; condition: record exists,
// reserved >= fromReserved, and (qty - fromReserved == 0 or available >=
// qty - fromReserved).
func shipWrite(account, sku, warehouse string, qty, fromReserved int) store.Write {
	free := qty - fromReserved
	values := map[string]types.AttributeValue{
		":q": store.N(int64(qty)), ":r": store.N(int64(fromReserved)), ":f": store.N(int64(free)),
	}
	cond := "#reserved >= :r"
	if free != 0 {
		cond += " AND #available >= :f"
	}
	return quantityUpdate(account, sku, warehouse,
		"#on_hand = #on_hand - :q, #reserved = #reserved - :r, #available = #available - :f", cond, values)
}

// stockOf reads the records of one SKU: one consistent Query.
func stockOf(ctx context.Context, t store.Table, account, sku string) ([]Record, error) {
	items, err := t.QueryUpTo(ctx, dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sku)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(pk(account)), ":sku": store.S(store.KeyText(sku) + store.Sep),
		},
		ConsistentRead: aws.Bool(true),
	}, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("read stock of %q: %w", sku, err)
	}
	var recs []Record
	if err := attributevalue.UnmarshalListOfMaps(items, &recs); err != nil {
		return nil, fmt.Errorf("unmarshal stock of %q: %w", sku, err)
	}
	// Exact matches only: a local emulator compares key prefixes without
	// case.
	return slices.DeleteFunc(recs, func(r Record) bool { return r.SKU != sku }), nil
}

// skusAt reads the SKUs that have a record at the warehouse: one Query of
// GSI1, keys only.
func skusAt(ctx context.Context, t store.Table, account, warehouse string) ([]string, error) {
	items, err := t.QueryUpTo(ctx, dynamodb.QueryInput{
		IndexName:              aws.String(store.GSI1),
		KeyConditionExpression: aws.String("GSI1PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(byWarehousePK(account, warehouse)),
		},
		ProjectionExpression: aws.String(attrSKU),
	}, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("read the SKUs at warehouse %s: %w", warehouse, err)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := it[attrSKU].(*types.AttributeValueMemberS); ok {
			out = append(out, s.Value)
		}
	}
	return out, nil
}
