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

// Reindex brings an account whose orders were written before the lists'
// counts and the GSI1 key of the order items up to date
// (docs/operations.md): every order item gets its GSI1 key (an UpdateItem
// conditioned on its version: an order saved meanwhile wrote it itself),
// the index items of the old list of all orders are deleted, and every
// count of the order lists is set to the number of orders in it. The counts
// are exact only if no order changes while it runs (imports and shipments
// paused); running it again is harmless.
func (s Service) Reindex(ctx context.Context, account string) error {
	all, err := allOrders(ctx, s.Table, account)
	if err != nil {
		return err
	}
	for i := range all {
		o := &all[i]
		u := store.Update{Set: []string{"#GSI1PK = :pk", "#GSI1SK = :sk"}, Condition: "#ver = :v"}
		u.Value(":pk", store.S(allPK(account)))
		u.Value(":sk", store.S(orderSK(o)))
		u.Value(":v", store.N(o.Version))
		if err := s.Table.Commit(ctx, []store.Write{u.Write(orderKey(account, o.Seq))}); err != nil && !store.ConditionFailed(err) {
			return fmt.Errorf("reindex order %d: %w", o.Seq, err)
		}
	}
	legacy, err := s.Table.QueryAll(ctx, legacyAllPK(account))
	if err != nil {
		return err
	}
	for _, it := range legacy {
		key := map[string]types.AttributeValue{store.AttrPK: it[store.AttrPK], store.AttrSK: it[store.AttrSK]}
		if err := s.Table.Commit(ctx, []store.Write{store.Delete(key, "", nil)}); err != nil {
			return fmt.Errorf("delete old index item %s: %w", sk(it), err)
		}
	}
	whs, err := s.Warehouses.List(ctx, account)
	if err != nil {
		return err
	}
	if err := s.Table.SetCounts(ctx, account, listCounts(all, whs)); err != nil {
		return fmt.Errorf("set the order counts: %w", err)
	}
	return nil
}
