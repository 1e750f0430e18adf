package orders

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// legacyAllPK is the partition of the index items that listed every order
// before the order items carried their GSI1 key (allPK).
func legacyAllPK(account string) string { return store.PK(account, kindIndex+"#all") }

// setGSI1 writes the GSI1 key of the order item o: one UpdateItem
// conditioned on its version (an order saved meanwhile wrote it itself).
func setGSI1(ctx context.Context, t store.Table, account string, o *Order) error {
	u := store.Update{Set: []string{"#GSI1PK = :pk", "#GSI1SK = :sk"}, Condition: "#ver = :v"}
	u.Value(":pk", store.S(allPK(account)))
	u.Value(":sk", store.S(orderSK(o)))
	u.Value(":v", store.N(o.Version))
	if err := t.Commit(ctx, []store.Write{u.Write(orderKey(account, o.Seq))}); err != nil && !store.ConditionFailed(err) {
		return fmt.Errorf("reindex order %d: %w", o.Seq, err)
	}
	return nil
}

// deleteLegacyIndex deletes the index items of the old list of all orders
// (legacyAllPK): one Query, and one DeleteItem each.
func deleteLegacyIndex(ctx context.Context, t store.Table, account string) error {
	legacy, err := t.QueryAll(ctx, legacyAllPK(account))
	if err != nil {
		return err
	}
	for _, it := range legacy {
		key := map[string]types.AttributeValue{store.AttrPK: it[store.AttrPK], store.AttrSK: it[store.AttrSK]}
		if err := t.Commit(ctx, []store.Write{store.Delete(key, "", nil)}); err != nil {
			return fmt.Errorf("delete old index item %s: %w", sk(it), err)
		}
	}
	return nil
}
