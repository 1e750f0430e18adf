package inventory

import (
	"time"

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

// Reserve is the write that moves qty from available to reserved at (sku,
// warehouse): qty > 0 reserves under the condition available >= qty (and
// the record exists); qty < 0 releases -qty (condition reserved >= -qty).
func (s Service) Reserve(account, sku, warehouse string, qty int) store.Write {
	values := map[string]types.AttributeValue{":q": store.N(int64(qty))}
	cond := "#available >= :q"
	if qty < 0 {
		values[":r"] = store.N(int64(-qty))
		cond = "#reserved >= :r"
	}
	return quantityUpdate(account, sku, warehouse,
		"#reserved = #reserved + :q, #available = #available - :q", cond, values)
}

// Ship is the write that removes qty units from on_hand, of which
// fromReserved (<= qty) were reserved: on_hand -= qty, reserved -=
// fromReserved, available -= qty - fromReserved; condition: record exists,
// reserved >= fromReserved, and (qty - fromReserved == 0 or available >=
// qty - fromReserved).
func (s Service) Ship(account, sku, warehouse string, qty, fromReserved int) store.Write {
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
