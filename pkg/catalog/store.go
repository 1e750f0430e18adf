package catalog

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/store"
)

// Partition kinds of the catalog (see docs/data-model.md).
const (
	kindProduct  = "P"      // every product and group, SK = sku
	kindGroups   = "PGROUP" // GSI1: the groups, GSI1SK = sku
	kindModified = "PMOD"   // GSI2: every product, GSI2SK = modified_at
	kindChildren = "PKIDS"  // GSI1: a group's children, GSI1PK = <acct>#PKIDS␟<group>, GSI1SK = sku
	kindSequence = "PSEQ"   // the product id counter
)

// readMode is how a read is made: strong inside a read-modify-write, whose
// write is conditioned on what it read; eventual for what is only shown.
type readMode bool

// The read modes.
const (
	strong   readMode = true
	eventual readMode = false
)

// maxTransactionBytes keeps a transaction below DynamoDB's 4 MB.
const maxTransactionBytes = 3_900_000

// productsPK is the partition of the account's products, sorted by SKU.
func productsPK(account string) string { return store.PK(account, kindProduct) }

// productKey is the primary key of the product sku.
func productKey(account, sku string) map[string]types.AttributeValue {
	return store.Key(productsPK(account), sku)
}

// childrenPK is the GSI1 partition of the children of the group sku.
func childrenPK(account, sku string) string {
	return store.Join(store.PK(account, kindChildren), sku)
}

// itemKeys are the key attributes of the record's item: its primary key,
// GSI2 (every product by modified_at) and GSI1: for a group the groups by
// SKU, for a child its group's children by SKU.
func itemKeys(account string, r *record) map[string]types.AttributeValue {
	keys := productKey(account, r.SKU)
	keys[store.AttrGSI2PK] = store.S(store.PK(account, kindModified))
	keys[store.AttrGSI2SK] = store.S(r.ModifiedAt)
	switch {
	case r.isGroup():
		keys[store.AttrGSI1PK] = store.S(store.PK(account, kindGroups))
		keys[store.AttrGSI1SK] = store.S(r.SKU)
	case r.isChild():
		keys[store.AttrGSI1PK] = store.S(childrenPK(account, *r.ParentSKU))
		keys[store.AttrGSI1SK] = store.S(r.SKU)
	}
	return keys
}

// itemSize estimates the stored size of the record's item with its key
// attributes: the record's JSON plus each key as JSON would spell it, never
// smaller than DynamoDB's measure of the item.
func itemSize(r *record, keys map[string]types.AttributeValue) int {
	n := r.size()
	for name, v := range keys {
		if s, ok := v.(*types.AttributeValueMemberS); ok {
			n += len(`"":"",`) + len(name) + len(s.Value)
		}
	}
	return n
}

// getRecord reads the product item sku; nil if there is none.
func getRecord(ctx context.Context, t store.Table, account, sku string, mode readMode) (*record, error) {
	var r record
	found, err := t.Get(ctx, productKey(account, sku), &r, bool(mode))
	if err != nil || !found {
		return nil, err
	}
	return &r, nil
}

// getRecords reads the product items of the given SKUs (one BatchGetItem
// per 100), keyed by SKU. Duplicates and invalid SKUs are skipped.
func getRecords(ctx context.Context, t store.Table, account string, skus []string, mode readMode) (map[string]*record, error) {
	seen := make(map[string]bool, len(skus))
	keys := make([]map[string]types.AttributeValue, 0, len(skus))
	for _, s := range skus {
		if seen[s] || !sku.Valid(s) {
			continue
		}
		seen[s] = true
		keys = append(keys, productKey(account, s))
	}
	items, err := t.BatchGet(ctx, keys, bool(mode))
	if err != nil {
		return nil, err
	}
	recs, err := decodeRecords(items)
	if err != nil {
		return nil, err
	}
	return bySKU(recs), nil
}

// decodeRecords unmarshals stored product items.
func decodeRecords(items []map[string]types.AttributeValue) ([]*record, error) {
	out := make([]*record, len(items))
	for i, it := range items {
		out[i] = &record{}
		if err := attributevalue.UnmarshalMap(it, out[i]); err != nil {
			return nil, fmt.Errorf("unmarshal product: %w", err)
		}
	}
	return out, nil
}

// condition is the change's condition on the version read: the item must
// not exist (read 0) or must still have that version.
func (c change) condition() (string, map[string]types.AttributeValue) {
	if c.read == 0 {
		return "attribute_not_exists(#PK)", nil
	}
	return "#ver = :ver", map[string]types.AttributeValue{":ver": store.N(c.read)}
}

// commit writes the changes all or nothing with one Commit (one PutItem or
// DeleteItem, or one TransactWriteItems), each conditioned on the version it
// was read at, with the counts of products and groups when it creates or
// deletes one (countChanges). A lost race surfaces as an error for which raced is true.
func commit(ctx context.Context, t store.Table, account string, changes []change) error {
	countWrites, err := countChanges(account, changes)
	if err != nil {
		return err
	}
	ws := make([]store.Write, len(changes), len(changes)+len(countWrites))
	size := 0
	for i, c := range changes {
		cond, values := c.condition()
		if c.next == nil {
			ws[i] = store.Delete(productKey(account, c.sku), cond, values)
			continue
		}
		keys := itemKeys(account, c.next)
		item, err := store.Marshal(c.next, keys)
		if err != nil {
			return err
		}
		size += itemSize(c.next, keys)
		ws[i] = store.Put(item, cond, values)
	}
	ws = append(ws, countWrites...)
	if size > maxTransactionBytes {
		return errs.Invalid("this change writes %d bytes of products, more than one transaction holds (%d): change fewer children at once", size, maxTransactionBytes)
	}
	if err := t.Commit(ctx, ws); err != nil {
		return fmt.Errorf("write %d products: %w", len(ws), err)
	}
	return nil
}

// raced reports whether err is a write that lost a race: a condition on a
// version it read failed, or another transaction held one of its items.
func raced(err error) bool {
	_, failed := store.FailedWrite(err)
	return failed || store.TransactionConflict(err) || errors.Is(err, errGroupMoved)
}
