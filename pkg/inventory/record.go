// Package inventory holds stock per SKU per warehouse (spec 2.4 and 4.2,
// DESIGN.md section 7): GET, POST, PUT and PATCH /inventory, the SQS
// consumer that applies batch adjustments, the adjustment status endpoint,
// and the reservation writes the orders domain puts in its transactions.
//
// Every write keeps available = on_hand - reserved in one update expression,
// so the invariant holds whatever runs concurrently.
package inventory

import (
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// Record is an inventory record as stored: the quantities and the fields the
// merchant sets on it. Product fields are joined in when it is returned.
type Record struct {
	SKU         string   `dynamodbav:"sku"`
	Warehouse   string   `dynamodbav:"warehouse_uuid"`
	OnHand      int64    `dynamodbav:"on_hand"`
	Reserved    int64    `dynamodbav:"reserved"`
	Available   int64    `dynamodbav:"available"`
	Cost        *float64 `dynamodbav:"cost"`
	BinLocation *string  `dynamodbav:"bin_location"`
	Description *string  `dynamodbav:"description"`
	CreatedAt   string   `dynamodbav:"created_at"`
	UpdatedAt   string   `dynamodbav:"updated_at"`
}

// Attribute names of a stored record.
const (
	attrSKU         = "sku"
	attrWarehouse   = "warehouse_uuid"
	attrOnHand      = "on_hand"
	attrReserved    = "reserved"
	attrAvailable   = "available"
	attrCost        = "cost"
	attrBinLocation = "bin_location"
	attrDescription = "description"
	attrCreatedAt   = "created_at"
	attrUpdatedAt   = "updated_at"
	// attrCreatedBy is what created the record: the PUT's request id, or
	// createdByPost. The record also holds last_request, the adjustment last
	// applied to it, which a redelivered message finds and applies nothing.
	attrCreatedBy = "created_by"
)

// createdByPost is the created_by of records POST /inventory created.
const createdByPost = "POST"

// pk is the partition of an account's inventory records. The sort key is
// sku + store.Sep + warehouse, so a Query returns them in (sku, warehouse)
// order and begins_with(SK, sku+Sep) finds one SKU's records.
func pk(account string) string { return store.PK(account, "INV") }

// sortKey is the sort key of the record (sku, warehouse); a very long
// SKU is shortened to fit (store.KeyText).
func sortKey(sku, warehouse string) string { return store.Join(store.KeyText(sku), warehouse) }

// Key is the primary key of the inventory record (sku, warehouse).
func Key(account, sku, warehouse string) map[string]types.AttributeValue {
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

// n is a number attribute value.
func n(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

// number is a number attribute value of a float.
func number(v float64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatFloat(v, 'f', -1, 64)}
}
