package inventory

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// kindHistory is the kind of the history items: <acct>#INVH /
// sku␟warehouse␟request id, one per adjustment applied to the record.
const kindHistory = "INVH"

// historyKey is the key of the change of the record r by request id: the
// record's changes share a prefix and sort by request id, so in the order
// their requests were accepted.
func historyKey(account string, r SKUWarehouse, requestID string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindHistory), store.Join(sortKey(r.SKU, r.Warehouse), requestID))
}

// historyWrite is the put of the change c of the account's record, kept
// historyRetention after it was applied. Put again with the same content
// (a redelivery), it changes nothing.
func historyWrite(account string, c Change) (store.Write, error) {
	r := SKUWarehouse{SKU: c.SKU, Warehouse: c.Warehouse}
	item, err := store.Marshal(c, historyKey(account, r, c.RequestID))
	if err != nil {
		return store.Write{}, fmt.Errorf("history of %s: %w", r, err)
	}
	at, ok := isotime.Parse(c.At)
	if !ok {
		return store.Write{}, fmt.Errorf("history of %s: bad time %q", r, c.At)
	}
	item[store.AttrTTL] = store.N(at.Add(historyRetention).Unix())
	return store.Put(item, "", nil), nil
}

// histories gathers the history writes of one adjustment's items, which
// Apply commits with the request's status (storeApplied). Its items are
// applied concurrently, so it is safe for concurrent use.
type histories struct {
	mu     sync.Mutex
	writes []store.Write
}

// add copies the stamp of the record item (as an UpdateItem returned it)
// into the record's history when the stamp is requestID's.
func (h *histories) add(account string, item map[string]types.AttributeValue, requestID string) error {
	var rec Record
	if err := attributevalue.UnmarshalMap(item, &rec); err != nil {
		return fmt.Errorf("unmarshal inventory record: %w", err)
	}
	c, ok := changeOf(rec)
	if !ok || c.RequestID != requestID {
		return nil // a record this request set before records had stamps
	}
	w, err := historyWrite(account, c)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.writes = append(h.writes, w)
	return nil
}

// hasChange reports whether the record r's history holds requestID's
// change: one strongly consistent GetItem of its key.
func hasChange(ctx context.Context, t store.Table, account string, r SKUWarehouse, requestID string) (bool, error) {
	var c Change
	found, err := t.Get(ctx, historyKey(account, r, requestID), &c, true)
	if err != nil {
		return false, fmt.Errorf("read history of %s: %w", r, err)
	}
	return found, nil
}

// historyPage reads page p of the record r's changes, newest first
// (store.Table.PageOf, a bounded count), their number (-1 when not known)
// and the next page's cursor.
func historyPage(ctx context.Context, t store.Table, account string, r SKUWarehouse, p paging.Page) ([]Change, int, *paging.Cursor, error) {
	prefix := store.Join(sortKey(r.SKU, r.Warehouse), "")
	in := query("", "#PK = :pk AND begins_with(#SK, :prefix)", map[string]types.AttributeValue{
		":pk": store.S(store.PK(account, kindHistory)), ":prefix": store.S(prefix),
	})
	in.ScanIndexForward = aws.Bool(false)
	q := store.PageQuery{Account: account, List: "inventory history " + prefix, Input: in, Bounded: true}
	page, err := t.PageOf(ctx, q, p)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("list history of %s: %w", r, err)
	}
	out := make([]Change, 0, len(page.Items))
	if err := attributevalue.UnmarshalListOfMaps(page.Items, &out); err != nil {
		return nil, 0, nil, fmt.Errorf("unmarshal history of %s: %w", r, err)
	}
	return out, int(page.Total), page.Next, nil
}
