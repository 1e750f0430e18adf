package inventory

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// applyConcurrency is how many items of one adjustment are applied at once.
const applyConcurrency = 10

// Apply applies a queued adjustment exactly once, however often it is
// delivered, and returns the result of each item in order.
//
// Each item is one conditional UpdateItem that sets the quantity and keeps
// available = on_hand - reserved in the same expression, and records the
// request id on the record: a redelivery finds it there and changes nothing
// (its result is read from the record). PUT creates a missing record, PATCH
// skips it. Once every item is applied the results are stored as the
// request's status; a delivery that finds the status returns it at once. So
// a 50-item adjustment costs one GetItem and at most 51 writes, and a
// failure part way leaves each item applied or not, never half-applied.
func (s Service) Apply(ctx context.Context, adj Adjustment) ([]Result, error) {
	t := s.Table
	if st, found, err := getStatus(ctx, t, adj.Account, adj.RequestID); err != nil || found {
		return st.Items, err
	}
	now := time.Now()
	results := make([]Result, len(adj.Items))
	errs := make([]error, len(adj.Items))
	// The items name distinct records (duplicates are refused up front), so
	// they are applied concurrently, a few at a time.
	sem := make(chan struct{}, applyConcurrency)
	var wg sync.WaitGroup
	for i, it := range adj.Items {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			results[i], errs[i] = applyItem(ctx, t, adj, it, isotime.Format(now))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	st := Status{RequestID: adj.RequestID, Status: StatusApplied, Items: results}
	if err := putStatus(ctx, t, adj.Account, st, now); err != nil {
		return nil, err
	}
	return results, nil
}

// applyItem applies one item of adj with one conditional UpdateItem.
func applyItem(ctx context.Context, t store.Table, adj Adjustment, it Item, now string) (Result, error) {
	in := itemUpdate(t, adj, it, now)
	res := Result{SKU: it.SKU, Warehouse: it.Warehouse}
	out, err := t.DB.UpdateItem(ctx, in)
	var ccf *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &ccf) && len(ccf.Item) == 0:
		res.Result = ResultSkipped
		return res, nil
	case errors.As(err, &ccf):
		// Applied by an earlier delivery of this request.
		return res, res.fill(ccf.Item, adj.RequestID)
	case err != nil:
		return res, fmt.Errorf("apply %s of %s: %w", it.Record(), adj.RequestID, err)
	}
	return res, res.fill(out.Attributes, adj.RequestID)
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
// reserved of that instant. The condition refuses a record this request
// was applied to already and, for PATCH, a missing record.
func itemUpdate(t store.Table, adj Adjustment, it Item, now string) *dynamodb.UpdateItemInput {
	values := map[string]types.AttributeValue{
		":zero": n(0), ":now": store.S(now), ":req": store.S(adj.RequestID),
	}
	sets := []string{
		"#reserved = if_not_exists(#reserved, :zero)",
		"#updated_at = :now", "#GSI2SK = :now", "#last_request = :req",
	}
	if it.OnHand != nil {
		values[":x"] = n(*it.OnHand)
		sets = append(sets, "#on_hand = :x", "#available = :x - if_not_exists(#reserved, :zero)")
	} else {
		values[":x"] = n(*it.Available)
		sets = append(sets, "#on_hand = :x + if_not_exists(#reserved, :zero)", "#available = :x")
	}
	cond := "(attribute_not_exists(#last_request) OR #last_request <> :req)"
	if adj.Method == MethodPatch {
		cond = "attribute_exists(#PK) AND " + cond
	} else {
		for k, v := range indexKeys(adj.Account, it.SKU, it.Warehouse, now) {
			values[":"+k] = v
		}
		delete(values, ":"+store.AttrGSI2SK) // set from :now for PATCH too
		values[":sku"], values[":wh"] = store.S(it.SKU), store.S(it.Warehouse)
		sets = append(sets, "#sku = :sku", "#warehouse_uuid = :wh",
			"#created_at = if_not_exists(#created_at, :now)", "#created_by = if_not_exists(#created_by, :req)",
			"#GSI1PK = :GSI1PK", "#GSI1SK = :GSI1SK", "#GSI2PK = :GSI2PK")
	}
	if it.Cost != nil {
		values[":cost"] = number(*it.Cost)
		sets = append(sets, "#cost = :cost")
	}
	if it.BinLocation != nil {
		values[":bin"] = store.S(*it.BinLocation)
		sets = append(sets, "#bin_location = :bin")
	}
	if it.Description != nil {
		values[":desc"] = store.S(*it.Description)
		sets = append(sets, "#description = :desc")
	}
	update := "SET " + strings.Join(sets, ", ")
	if len(it.Clear) > 0 {
		update += " REMOVE #" + strings.Join(it.Clear, ", #")
	}
	return &dynamodb.UpdateItemInput{
		TableName:                           t.TableName(),
		Key:                                 Key(adj.Account, it.SKU, it.Warehouse),
		UpdateExpression:                    aws.String(update),
		ConditionExpression:                 aws.String(cond),
		ExpressionAttributeNames:            store.Names(update, cond),
		ExpressionAttributeValues:           values,
		ReturnValues:                        types.ReturnValueAllNew,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}
}
