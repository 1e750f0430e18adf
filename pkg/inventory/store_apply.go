package inventory

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// applyItem applies one item of adj: one conditional UpdateItem of an
// existing record; a PUT of a missing one creates it (createItem) and, when
// another write created it meanwhile, updates that.
func (s Service) applyItem(ctx context.Context, adj Adjustment, it Item, now string) (Result, error) {
	for range createAttempts {
		res, missing, err := updateItem(ctx, s.Table, adj, it, now)
		if !missing || adj.Method == MethodPatch {
			return res, err
		}
		if res, made, err := s.createItem(ctx, adj, it, now); made || err != nil {
			return res, err
		}
	}
	return Result{}, fmt.Errorf("apply %s of %s: the record kept coming and going", it.Record(), adj.RequestID)
}

// updateItem applies one item of adj to its record with one conditional
// UpdateItem; missing is whether there is no record (a PATCH skips it).
func updateItem(ctx context.Context, t store.Table, adj Adjustment, it Item, now string) (res Result, missing bool, err error) {
	res = Result{SKU: it.SKU, Warehouse: it.Warehouse}
	out, err := t.DB.UpdateItem(ctx, itemUpdate(t, adj, it, now))
	var ccf *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &ccf) && len(ccf.Item) == 0:
		res.Result = ResultSkipped
		return res, true, nil
	case errors.As(err, &ccf) && lastRequest(ccf.Item) != adj.RequestID:
		// Set by a request accepted after this one.
		res.Result = ResultSuperseded
		return res, false, nil
	case errors.As(err, &ccf):
		// Applied by an earlier delivery of this request.
		return res, false, res.fill(ccf.Item, adj.RequestID)
	case err != nil:
		return res, false, fmt.Errorf("apply %s of %s: %w", it.Record(), adj.RequestID, err)
	}
	return res, false, res.fill(out.Attributes, adj.RequestID)
}

// createItem creates the missing record of a PUT's item: the item's
// update on the condition that the record does not exist, with its
// product's fields copied in (one strongly consistent read of the product)
// and the counts of the list and of the warehouse, in one transaction.
// made is false when the record exists after all.
func (s Service) createItem(ctx context.Context, adj Adjustment, it Item, now string) (res Result, made bool, err error) {
	ps, err := s.products(ctx, adj.Account, []Item{it})
	if err != nil {
		return res, false, err
	}
	u := itemChange(adj, it, now)
	u.Condition = "attribute_not_exists(#PK)"
	p := product(ps, it.SKU)
	u.SetValue(attrProduct, copyValue(copyOf(p)))
	u.SetValue(attrPVersion, store.N(versionOf(p)))
	writes := append([]store.Write{u.Write(key(adj.Account, it.SKU, it.Warehouse))}, created(it.Warehouse).Writes(adj.Account)...)
	err = store.Retry(ctx, createAttempts, store.TransactionConflict, func() error { return s.Table.Commit(ctx, writes) })
	if i, ok := store.FailedWrite(err); ok && i == 0 {
		return res, false, nil
	}
	if err != nil {
		return res, false, fmt.Errorf("create %s of %s: %w", it.Record(), adj.RequestID, err)
	}
	qty := it.OnHand
	if qty == nil {
		qty = it.Available
	}
	zero := int64(0)
	return Result{SKU: it.SKU, Warehouse: it.Warehouse, Result: ResultCreated, OnHand: qty, Reserved: &zero, Available: qty}, true, nil
}

// lastRequest is the id of the request that last set the record item.
func lastRequest(item map[string]types.AttributeValue) string {
	v, _ := item[attrLastRequest].(*types.AttributeValueMemberS)
	if v == nil {
		return ""
	}
	return v.Value
}

// fill sets the result and the quantities from the record after the
// request was applied to it.
func (r *Result) fill(item map[string]types.AttributeValue, requestID string) error {
	var rec struct {
		OnHand    int64  `dynamodbav:"on_hand"`
		Reserved  int64  `dynamodbav:"reserved"`
		Available int64  `dynamodbav:"available"`
		CreatedBy string `dynamodbav:"created_by"`
	}
	if err := attributevalue.UnmarshalMap(item, &rec); err != nil {
		return fmt.Errorf("unmarshal inventory record: %w", err)
	}
	r.Result = ResultApplied
	if rec.CreatedBy == requestID {
		r.Result = ResultCreated
	}
	r.OnHand, r.Reserved, r.Available = &rec.OnHand, &rec.Reserved, &rec.Available
	return nil
}

// itemUpdate is the UpdateItem of one item on its existing record, which
// returns the record after the update, or before it when the condition
// fails.
func itemUpdate(t store.Table, adj Adjustment, it Item, now string) *dynamodb.UpdateItemInput {
	u := itemChange(adj, it, now)
	u.Condition = "attribute_exists(#PK) AND " + u.Condition
	in := u.Input(t, key(adj.Account, it.SKU, it.Warehouse))
	in.ReturnValues = types.ReturnValueAllNew
	in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	return in
}

// itemChange is the update of one item: on_hand X sets available =
// X - reserved, available X sets on_hand = X + reserved, both against the
// reserved of that instant. The condition refuses a record this request, or
// a later one, was applied to already (request ids sort by the time they
// were made); a PUT also sets what a new record holds, unless set.
func itemChange(adj Adjustment, it Item, now string) store.Update {
	u := store.Update{
		Set: []string{
			"#reserved = if_not_exists(#reserved, :zero)",
			"#updated_at = :now", "#GSI2SK = :now", "#" + attrLastRequest + " = :req",
		},
		Remove:    it.Clear,
		Condition: "(attribute_not_exists(#" + attrLastRequest + ") OR #" + attrLastRequest + " < :req)",
		Values:    map[string]types.AttributeValue{":zero": store.N(0), ":now": store.S(now), ":req": store.S(adj.RequestID)},
	}
	if it.OnHand != nil {
		u.Value(":x", store.N(*it.OnHand))
		u.Set = append(u.Set, "#on_hand = :x", "#available = :x - if_not_exists(#reserved, :zero)")
	} else {
		u.Value(":x", store.N(*it.Available))
		u.Set = append(u.Set, "#on_hand = :x + if_not_exists(#reserved, :zero)", "#available = :x")
	}
	if adj.Method == MethodPut {
		u.SetValue(attrSKU, store.S(it.SKU))
		u.SetValue(attrWarehouse, store.S(it.Warehouse))
		keys := indexKeys(adj.Account, it.SKU, it.Warehouse, now)
		for _, k := range []string{store.AttrGSI1PK, store.AttrGSI1SK, store.AttrGSI2PK} { // GSI2SK is :now
			u.SetValue(k, keys[k])
		}
		u.Set = append(u.Set, "#created_at = if_not_exists(#created_at, :now)", "#created_by = if_not_exists(#created_by, :req)")
	}
	if it.Cost != nil {
		u.SetValue(attrCost, number(*it.Cost))
	}
	if it.BinLocation != nil {
		u.SetValue(attrBinLocation, store.S(*it.BinLocation))
	}
	if it.Description != nil {
		u.SetValue(attrDescription, store.S(*it.Description))
	}
	return u
}
