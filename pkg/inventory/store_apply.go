package inventory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// applyItem applies one item of adj: one conditional UpdateItem of an
// existing record, its history added to hist; a PUT of a missing one
// creates it (createItem) and, when another write created it meanwhile,
// updates that. A compare-and-set (if_on_hand) of a missing record is a
// conflict.
func (s Service) applyItem(ctx context.Context, adj Adjustment, it Item, now string, hist *histories) (Result, error) {
	for range store.Attempts {
		res, missing, err := s.updateItem(ctx, adj, it, now, false, hist)
		switch {
		case !missing || adj.Method == MethodPatch:
			return res, err
		case it.IfOnHand != nil:
			res.Result, res.Reason = ResultConflict, ConflictReason
			return res, nil
		}
		if res, made, err := s.createItem(ctx, adj, it, now); made || err != nil {
			return res, err
		}
	}
	return Result{}, fmt.Errorf("apply %s of %s: the record kept coming and going", it.Record(), adj.RequestID)
}

// updateItem applies one item of adj to its record with one conditional
// UpdateItem (late: see applyLate), its change added to hist for the
// record's history; missing is whether there is no record (a PATCH skips
// it).
func (s Service) updateItem(ctx context.Context, adj Adjustment, it Item, now string, late bool, hist *histories) (res Result, missing bool, err error) {
	out, err := s.Table.DB.UpdateItem(ctx, itemUpdate(s.Table, adj, it, now, late))
	var ccf *types.ConditionalCheckFailedException
	if errors.As(err, &ccf) {
		return s.refused(ctx, adj, it, now, ccf.Item, late, hist)
	}
	if err != nil {
		return Result{SKU: it.SKU, Warehouse: it.Warehouse}, false, fmt.Errorf("apply %s of %s: %w", it.Record(), adj.RequestID, err)
	}
	res, err = changed(adj, it, out.Attributes, hist)
	return res, false, err
}

// changed is the result of an item applied to its record (item, the record
// right after), whose change it adds to hist.
func changed(adj Adjustment, it Item, item map[string]types.AttributeValue, hist *histories) (Result, error) {
	res := Result{SKU: it.SKU, Warehouse: it.Warehouse}
	if err := res.fill(item, adj.RequestID); err != nil {
		return res, err
	}
	return res, hist.add(adj.Account, item, adj.RequestID)
}

// refused is the result of an item whose update's condition failed, from
// the record as it was (old, empty when missing): applied by an earlier
// delivery of the request (its history is written again, which a crash
// may have missed), superseded (an absolute quantity of a request accepted
// before the one that last set the record), a delta of such a request
// (applyLate), or else a conflict (if_on_hand) or rejected (a delta out
// of range), with the record's current quantities.
func (s Service) refused(ctx context.Context, adj Adjustment, it Item, now string, old map[string]types.AttributeValue, late bool, hist *histories) (Result, bool, error) {
	res := Result{SKU: it.SKU, Warehouse: it.Warehouse}
	if len(old) == 0 {
		res.Result = ResultSkipped
		return res, true, nil
	}
	var rec Record
	if err := attributevalue.UnmarshalMap(old, &rec); err != nil {
		return res, false, fmt.Errorf("unmarshal inventory record: %w", err)
	}
	last := lastRequest(old)
	switch {
	case last == adj.RequestID || rec.ChgReq == adj.RequestID:
		res, err := changed(adj, it, old, hist)
		return res, false, err
	case last > adj.RequestID && it.OnHandDelta == nil:
		res.Result = ResultSuperseded
		return res, false, nil
	case last > adj.RequestID && !late:
		return s.applyLate(ctx, adj, it, now, old, hist)
	}
	res.OnHand, res.Reserved, res.Available = &rec.OnHand, &rec.Reserved, &rec.Available
	switch {
	case it.IfOnHand != nil && rec.OnHand != *it.IfOnHand:
		res.Result, res.Reason = ResultConflict, ConflictReason
	case it.OnHandDelta != nil && !deltaFits(rec.OnHand, *it.OnHandDelta):
		res.Result, res.Reason = ResultRejected, DeltaRefusedReason
	default:
		return res, false, fmt.Errorf("apply %s of %s: refused by the record, last set by %s", it.Record(), adj.RequestID, last)
	}
	return res, false, nil
}

// applyLate applies a delta of a request accepted before the one that last
// set the record (requests accepted at about the same time can reach the
// queue in the other order): a delta composes with any change, so it
// applies unless the record's history holds it already (a redelivery),
// leaving the record's last request as it is. old is the record as the
// first update found it.
func (s Service) applyLate(ctx context.Context, adj Adjustment, it Item, now string, old map[string]types.AttributeValue, hist *histories) (Result, bool, error) {
	done, err := hasChange(ctx, s.Table, adj.Account, it.Record(), adj.RequestID)
	if err != nil || !done {
		if err != nil {
			return Result{SKU: it.SKU, Warehouse: it.Warehouse}, false, err
		}
		return s.updateItem(ctx, adj, it, now, true, hist)
	}
	res := Result{SKU: it.SKU, Warehouse: it.Warehouse}
	return res, false, res.fill(old, adj.RequestID)
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
	u := itemChange(adj, it, now, true)
	u.Condition = "attribute_not_exists(#PK)"
	p := product(ps, it.SKU)
	u.SetValue(attrProduct, copyValue(copyOf(p)))
	u.SetValue(attrPVersion, store.N(versionOf(p)))
	qty := it.OnHand
	if qty == nil {
		qty = it.Available
	}
	hist, err := historyWrite(adj.Account, Change{RequestID: adj.RequestID, SKU: it.SKU, Warehouse: it.Warehouse,
		After: *qty, Delta: *qty, Reason: it.Reason, Reference: it.Reference, At: now})
	if err != nil {
		return res, false, err
	}
	writes := append([]store.Write{u.Write(key(adj.Account, it.SKU, it.Warehouse)), hist}, created(it.Warehouse).Writes(adj.Account)...)
	err = store.Retry(ctx, store.Attempts, store.TransactionConflict, func() error { return s.Table.Commit(ctx, writes) })
	if i, ok := store.FailedWrite(err); ok && i == 0 {
		return res, false, nil
	}
	if err != nil {
		return res, false, fmt.Errorf("create %s of %s: %w", it.Record(), adj.RequestID, err)
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
// fails. The condition refuses a record this request, or a later one, was
// applied to already (request ids sort by the time they were made); late,
// for a delta of a request accepted before the one that last set the
// record (applyLate), it refuses only a record whose stamp is this
// request's, and keeps the record's last request. An if_on_hand must be
// the record's on_hand, and a delta must keep on_hand from 0 to
// MaxQuantity (deltaLimit: condition expressions have no arithmetic).
func itemUpdate(t store.Table, adj Adjustment, it Item, now string, late bool) *dynamodb.UpdateItemInput {
	u := itemChange(adj, it, now, !late)
	conds := []string{"attribute_exists(#PK)", requestOrder}
	if late {
		conds[1] = "#" + attrLastRequest + " > :req AND (attribute_not_exists(#" + attrChgReq + ") OR #" + attrChgReq + " <> :req)"
	}
	if it.IfOnHand != nil {
		u.Value(":if", store.N(*it.IfOnHand))
		conds = append(conds, "#on_hand = :if")
	}
	if d := it.OnHandDelta; d != nil {
		u.Value(":lim", store.N(deltaLimit(*d)))
		if *d < 0 {
			conds = append(conds, "#on_hand >= :lim")
		} else {
			conds = append(conds, "#on_hand <= :lim")
		}
	}
	u.Condition = strings.Join(conds, " AND ")
	in := u.Input(t, key(adj.Account, it.SKU, it.Warehouse))
	in.ReturnValues = types.ReturnValueAllNew
	in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	return in
}

// requestOrder is the condition that neither this request (:req) nor a
// later one has set the record.
const requestOrder = "(attribute_not_exists(#" + attrLastRequest + ") OR #" + attrLastRequest + " < :req)"

// itemChange is the update of one item: on_hand X sets available =
// X - reserved, available X sets on_hand = X + reserved, both against the
// reserved of that instant, and a delta D adds D to both; setLast records
// the request as the record's last. The change is stamped on the record
// (the request, on_hand before and after, reason, reference, time: what
// its history item copies). A PUT also sets what a new record holds,
// unless set.
func itemChange(adj Adjustment, it Item, now string, setLast bool) store.Update {
	u := store.Update{
		Set: []string{
			"#reserved = if_not_exists(#reserved, :zero)",
			"#updated_at = :now", "#GSI2SK = :now",
			"#" + attrChgReq + " = :req", "#" + attrChgAt + " = :now",
			"#" + attrChgBefore + " = if_not_exists(#on_hand, :zero)",
		},
		Remove: slices.Clone(it.Clear),
		Values: map[string]types.AttributeValue{":zero": store.N(0), ":now": store.S(now), ":req": store.S(adj.RequestID)},
	}
	if setLast {
		u.Set = append(u.Set, "#"+attrLastRequest+" = :req")
	}
	var onHand string
	switch {
	case it.OnHand != nil:
		u.Value(":x", store.N(*it.OnHand))
		onHand = ":x"
		u.Set = append(u.Set, "#available = :x - if_not_exists(#reserved, :zero)")
	case it.Available != nil:
		u.Value(":x", store.N(*it.Available))
		onHand = ":x + if_not_exists(#reserved, :zero)"
		u.Set = append(u.Set, "#available = :x")
	default:
		u.Value(":d", store.N(*it.OnHandDelta))
		onHand = "#on_hand + :d"
		u.Set = append(u.Set, "#available = #available + :d")
	}
	u.Set = append(u.Set, "#on_hand = "+onHand, "#"+attrChgAfter+" = "+onHand)
	for _, f := range []struct {
		attr string
		v    *string
	}{{attrChgReason, it.Reason}, {attrChgReference, it.Reference}} {
		if f.v != nil {
			u.SetValue(f.attr, store.S(*f.v))
		} else {
			u.Remove = append(u.Remove, f.attr)
		}
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
