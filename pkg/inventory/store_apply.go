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

// applyItem applies one item of adj with one conditional UpdateItem.
func applyItem(ctx context.Context, t store.Table, adj Adjustment, it Item, now string) (Result, error) {
	res := Result{SKU: it.SKU, Warehouse: it.Warehouse}
	out, err := t.DB.UpdateItem(ctx, itemUpdate(t, adj, it, now))
	var ccf *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &ccf) && len(ccf.Item) == 0:
		res.Result = ResultSkipped
		return res, nil
	case errors.As(err, &ccf) && lastRequest(ccf.Item) != adj.RequestID:
		// Set by a request accepted after this one.
		res.Result = ResultSuperseded
		return res, nil
	case errors.As(err, &ccf):
		// Applied by an earlier delivery of this request.
		return res, res.fill(ccf.Item, adj.RequestID)
	case err != nil:
		return res, fmt.Errorf("apply %s of %s: %w", it.Record(), adj.RequestID, err)
	}
	return res, res.fill(out.Attributes, adj.RequestID)
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

// itemUpdate is the UpdateItem of one item: on_hand X sets available =
// X - reserved, available X sets on_hand = X + reserved, both against the
// reserved of that instant. The condition refuses a record this request, or
// a later one, was applied to already (request ids sort by the time they
// were made) and, for PATCH, a missing record. It returns the record after
// the update, or before it when the condition fails.
func itemUpdate(t store.Table, adj Adjustment, it Item, now string) *dynamodb.UpdateItemInput {
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
	if adj.Method == MethodPatch {
		u.Condition = "attribute_exists(#PK) AND " + u.Condition
	} else {
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
	in := u.Input(t, key(adj.Account, it.SKU, it.Warehouse))
	in.ReturnValues = types.ReturnValueAllNew
	in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	return in
}
