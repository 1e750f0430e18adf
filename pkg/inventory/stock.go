package inventory

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// SKUWarehouse names one inventory record.
type SKUWarehouse struct{ SKU, Warehouse string }

// StockListener is told, after an adjustment or a new record may have made
// stock available, which records changed; the orders domain implements it to
// allocate unassigned order quantities oldest first. Wired in pkg/app.
type StockListener interface {
	StockAvailable(ctx context.Context, account string, records []SKUWarehouse) error
}

// quantityUpdate is the TransactWriteItem of a relative change of a record's
// quantities; every such change also moves updated_at (and its GSI2 copy).
func quantityUpdate(t store.Table, account, sku, warehouse, set, cond string, values map[string]types.AttributeValue) types.TransactWriteItem {
	values[":now"] = store.S(isotime.Format(time.Now()))
	update := "SET " + set + ", #updated_at = :now, #GSI2SK = :now"
	cond = "attribute_exists(#PK) AND " + cond
	return types.TransactWriteItem{Update: &types.Update{
		TableName:                 t.TableName(),
		Key:                       Key(account, sku, warehouse),
		UpdateExpression:          aws.String(update),
		ConditionExpression:       aws.String(cond),
		ExpressionAttributeNames:  store.Names(update, cond),
		ExpressionAttributeValues: values,
	}}
}

// Reserve returns a TransactWriteItem that moves qty from available to
// reserved at (sku, warehouse): qty > 0 reserves under the condition
// available >= qty (and the record exists); qty < 0 releases -qty (condition
// reserved >= -qty).
func Reserve(t store.Table, account, sku, warehouse string, qty int) types.TransactWriteItem {
	values := map[string]types.AttributeValue{":q": n(int64(qty))}
	cond := "#available >= :q"
	if qty < 0 {
		values[":r"] = n(int64(-qty))
		cond = "#reserved >= :r"
	}
	return quantityUpdate(t, account, sku, warehouse,
		"#reserved = #reserved + :q, #available = #available - :q", cond, values)
}

// Ship returns a TransactWriteItem that removes qty units from on_hand, of
// which fromReserved (<= qty) were reserved: on_hand -= qty, reserved -=
// fromReserved, available -= qty - fromReserved; condition: record exists,
// reserved >= fromReserved, and (qty - fromReserved == 0 or available >=
// qty - fromReserved).
func Ship(t store.Table, account, sku, warehouse string, qty, fromReserved int) types.TransactWriteItem {
	free := qty - fromReserved
	values := map[string]types.AttributeValue{
		":q": n(int64(qty)), ":r": n(int64(fromReserved)), ":f": n(int64(free)),
	}
	cond := "#reserved >= :r"
	if free != 0 {
		cond += " AND #available >= :f"
	}
	return quantityUpdate(t, account, sku, warehouse,
		"#on_hand = #on_hand - :q, #reserved = #reserved - :r, #available = #available - :f", cond, values)
}
