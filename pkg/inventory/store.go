package inventory

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Item kinds of the inventory (docs/data-model.md).
const (
	kindRecord = "INV" // a stock record, SK sku␟warehouse
	kindStatus = "ADJ" // an applied adjustment request's status, SK the request id
)

// pk is the partition of an account's inventory records. The sort key is
// sku + store.Sep + warehouse, so a Query returns them in (sku, warehouse)
// order and begins_with(SK, sku+Sep) finds one SKU's records.
func pk(account string) string { return store.PK(account, kindRecord) }

// sortKey is the sort key of the record (sku, warehouse); a very long
// SKU is shortened to fit (store.KeyText).
func sortKey(sku, warehouse string) string { return store.Join(store.KeyText(sku), warehouse) }

// key is the primary key of the inventory record (sku, warehouse).
func key(account, sku, warehouse string) map[string]types.AttributeValue {
	return store.Key(pk(account), sortKey(sku, warehouse))
}

// byWarehousePK is the GSI1 partition of one warehouse's records (GSI1SK is
// the SKU): GET /inventory?warehouse_uuid= reads it in SKU order.
func byWarehousePK(account, warehouse string) string {
	return store.PK(account, store.Join("INVWH", warehouse))
}

// byUpdatePK is the GSI2 partition of an account's records ordered by
// updated_at (GSI2SK): the updated_at_min/max filters read a range of it.
func byUpdatePK(account string) string { return store.PK(account, "INVUPD") }

// indexKeys returns the GSI attributes of the record (sku, warehouse)
// updated at now.
func indexKeys(account, sku, warehouse, now string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		store.AttrGSI1PK: store.S(byWarehousePK(account, warehouse)),
		store.AttrGSI1SK: store.S(sku),
		store.AttrGSI2PK: store.S(byUpdatePK(account)),
		store.AttrGSI2SK: store.S(now),
	}
}

// number is a number attribute value of a float.
func number(v float64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatFloat(v, 'f', -1, 64)}
}

// createWrites are the puts of a new record for each item at now, with the
// fields of its product in ps, each on the condition that the record does
// not exist yet.
func createWrites(account string, items []Item, now string, ps productsBySKU) []store.Write {
	ws := make([]store.Write, len(items))
	for i, it := range items {
		item := newRecord(account, it, now)
		setCopy(item, product(ps, it.SKU))
		ws[i] = store.Put(item, "attribute_not_exists(#PK)", nil)
	}
	return ws
}

// newRecord is the stored item of a record created from it at now.
func newRecord(account string, it Item, now string) map[string]types.AttributeValue {
	qty := it.OnHand
	if qty == nil {
		qty = it.Available
	}
	item := key(account, it.SKU, it.Warehouse)
	for k, v := range indexKeys(account, it.SKU, it.Warehouse, now) {
		item[k] = v
	}
	item[attrSKU] = store.S(it.SKU)
	item[attrWarehouse] = store.S(it.Warehouse)
	item[attrOnHand] = store.N(*qty)
	item[attrReserved] = store.N(0)
	item[attrAvailable] = store.N(*qty)
	item[attrCreatedAt] = store.S(now)
	item[attrUpdatedAt] = store.S(now)
	item[attrCreatedBy] = store.S(createdByPost)
	if it.Cost != nil {
		item[attrCost] = number(*it.Cost)
	}
	if it.BinLocation != nil {
		item[attrBinLocation] = store.S(*it.BinLocation)
	}
	if it.Description != nil {
		item[attrDescription] = store.S(*it.Description)
	}
	return item
}

// getRecords reads those of the records rs that exist: strongly consistent,
// one BatchGetItem per 100 keys.
func getRecords(ctx context.Context, t store.Table, account string, rs []SKUWarehouse) ([]Record, error) {
	keys := make([]map[string]types.AttributeValue, len(rs))
	for i, r := range rs {
		keys[i] = key(account, r.SKU, r.Warehouse)
	}
	items, err := t.BatchGet(ctx, keys, true)
	if err != nil {
		return nil, fmt.Errorf("read inventory records: %w", err)
	}
	out := make([]Record, len(items))
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("unmarshal inventory records: %w", err)
	}
	return out, nil
}

// allRecords reads every record of the account in (sku, warehouse) order:
// one Query, all its pages.
func allRecords(ctx context.Context, t store.Table, account string) ([]Record, error) {
	items, err := t.QueryAll(ctx, pk(account))
	if err != nil {
		return nil, fmt.Errorf("read inventory: %w", err)
	}
	var out []Record
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("unmarshal inventory records: %w", err)
	}
	return out, nil
}

// onHandOf returns the on_hand of those of the items' records that exist:
// one BatchGetItem (eventually consistent: what a call is checked against
// when it is received).
func onHandOf(ctx context.Context, t store.Table, account string, items []Item) (map[SKUWarehouse]int64, error) {
	keys := make([]map[string]types.AttributeValue, len(items))
	for i, it := range items {
		keys[i] = key(account, it.SKU, it.Warehouse)
	}
	found, err := t.BatchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("look up inventory records: %w", err)
	}
	var recs []struct {
		SKU       string `dynamodbav:"sku"`
		Warehouse string `dynamodbav:"warehouse_uuid"`
		OnHand    int64  `dynamodbav:"on_hand"`
	}
	if err := attributevalue.UnmarshalListOfMaps(found, &recs); err != nil {
		return nil, fmt.Errorf("unmarshal inventory records: %w", err)
	}
	out := make(map[SKUWarehouse]int64, len(recs))
	for _, r := range recs {
		out[SKUWarehouse{SKU: r.SKU, Warehouse: r.Warehouse}] = r.OnHand
	}
	return out, nil
}

// statusPK is the partition of an account's applied adjustments.
func statusPK(account string) string { return store.PK(account, kindStatus) }

// getStatus reads the stored status of an applied request; found is false
// while it is not applied.
func getStatus(ctx context.Context, t store.Table, account, id string) (st Status, found bool, err error) {
	found, err = t.Get(ctx, store.Key(statusPK(account), id), &st, true)
	if err != nil {
		return st, false, fmt.Errorf("get adjustment %s: %w", id, err)
	}
	return st, found, nil
}

// storeApplied stores the status of an applied request, kept
// statusRetention, with the history writes of its items: in one
// transaction when they fit (else the histories first, MaxWrites at a
// time, and the status with the last of them), so a stored status always
// has its histories and a redelivery that finds it changes nothing.
func storeApplied(ctx context.Context, t store.Table, account string, st Status, now time.Time, hist []store.Write) error {
	item, err := store.Marshal(st, store.Key(statusPK(account), st.RequestID))
	if err != nil {
		return fmt.Errorf("adjustment %s: %w", st.RequestID, err)
	}
	item["applied_at"] = store.S(isotime.Format(now))
	item[store.AttrTTL] = store.N(now.Add(statusRetention).Unix())
	ws := append(slices.Clone(hist), store.Put(item, "", nil))
	for len(ws) > 0 {
		n := min(len(ws), store.MaxWrites)
		err := store.Retry(ctx, store.Attempts, store.TransactionConflict, func() error { return t.Commit(ctx, ws[:n]) })
		if err != nil {
			return fmt.Errorf("put adjustment %s: %w", st.RequestID, err)
		}
		ws = ws[n:]
	}
	return nil
}

// copyValue is the stored value of a copy (a map).
func copyValue(c productCopy) types.AttributeValue {
	v, _ := attributevalue.Marshal(c) // cannot fail: strings and numbers
	return v
}

// setCopy adds the copy of p and its version to the item of a new record.
func setCopy(item map[string]types.AttributeValue, p *catalog.Versioned) {
	item[attrProduct] = copyValue(copyOf(p))
	item[attrPVersion] = store.N(versionOf(p))
}
