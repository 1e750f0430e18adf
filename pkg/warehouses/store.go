package warehouses

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
)

// pk is the partition of an account's warehouses; the sort key is the
// time-ordered uuid, so a Query returns them in creation order.
func pk(account string) string { return store.PK(account, "WH") }

// key is the primary key of a warehouse.
func key(account, uuid string) map[string]types.AttributeValue { return store.Key(pk(account), uuid) }

// put stores the new warehouse w: one PutItem that never overwrites.
func put(ctx context.Context, t store.Table, account string, w Warehouse) error {
	item, err := store.Marshal(w, key(account, w.UUID))
	if err != nil {
		return err
	}
	if err := t.Commit(ctx, []store.Write{store.Put(item, "attribute_not_exists(PK)", nil)}); err != nil {
		return fmt.Errorf("put warehouse: %w", err)
	}
	return nil
}

// update applies in to an existing warehouse with one conditional
// UpdateItem and reports whether the warehouse was archived before; an
// unknown warehouse is errs.NotFound. in must change something.
func update(ctx context.Context, t store.Table, account, uuid string, in Input) (wasArchived bool, err error) {
	u := store.Update{Condition: "attribute_exists(PK)", Remove: in.Clear}
	for _, attr := range slices.Sorted(maps.Keys(in.Text)) {
		u.SetValue(attr, store.S(in.Text[attr]))
	}
	if in.EnableShippingSoftware != nil {
		u.SetValue("enable_shipping_software", &types.AttributeValueMemberBOOL{Value: *in.EnableShippingSoftware})
	}
	if in.Archived != nil {
		u.SetValue("archived", &types.AttributeValueMemberBOOL{Value: *in.Archived})
	}
	if in.Priority != nil {
		u.SetValue("priority", store.N(int64(*in.Priority)))
	}
	req := u.Input(t, key(account, uuid))
	req.ReturnValues = types.ReturnValueUpdatedOld
	out, err := t.DB.UpdateItem(ctx, req)
	if store.ConditionFailed(err) {
		return false, errs.NotFound(NotFoundMessage)
	}
	if err != nil {
		return false, fmt.Errorf("update warehouse: %w", err)
	}
	var old struct {
		Archived bool `dynamodbav:"archived"`
	}
	if err := attributevalue.UnmarshalMap(out.Attributes, &old); err != nil {
		return false, fmt.Errorf("unmarshal warehouse: %w", err)
	}
	return old.Archived, nil
}

// get reads one warehouse of the account: one GetItem.
func get(ctx context.Context, t store.Table, account, uuid string) (Warehouse, error) {
	var w Warehouse
	found, err := t.Get(ctx, key(account, uuid), &w, false)
	if err != nil {
		return Warehouse{}, err
	}
	if !found {
		return Warehouse{}, errs.NotFound(NotFoundMessage)
	}
	return w, nil
}

// list reads every warehouse of the account in creation order: one Query.
func list(ctx context.Context, t store.Table, account string) ([]Warehouse, error) {
	items, err := t.QueryAll(ctx, pk(account))
	if err != nil {
		return nil, err
	}
	out := make([]Warehouse, 0, len(items))
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("unmarshal warehouses: %w", err)
	}
	return out, nil
}
