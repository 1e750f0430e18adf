package shipments

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Item kinds and attributes of shipments (docs/data-model.md).
const (
	// kindShipment is the partition of an account's shipments, by id
	// (uuid v7: creation order).
	kindShipment = "SHP"
	// kindByOrder is GSI1's partition of an account's shipments, by order:
	// SK <seq, 12 digits>␟<shipment id>.
	kindByOrder = "SHPO"
	// kindRepeat is the partition of the marks of the account's shipments
	// by what they ship: SK <seq, 12 digits>␟<fingerprint> (attr
	// shipment_id), so a repeat of a shipment finds the first.
	kindRepeat = "SHPREP"
	attrRev    = "rev"
	attrStatus = "sync_status"
)

// key is the primary key of a shipment.
func key(account, id string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindShipment), id)
}

// seqKey is a seq as GSI1's sort key starts: 12 digits, so keys sort by
// number.
func seqKey(seq int64) string { return fmt.Sprintf("%012d", seq) }

// item is the stored form of sh, with its GSI1 entry.
func item(account string, sh *Shipment) (map[string]types.AttributeValue, error) {
	it, err := store.Marshal(sh, key(account, sh.ID))
	if err != nil {
		return nil, err
	}
	it[store.AttrGSI1PK] = store.S(store.PK(account, kindByOrder))
	it[store.AttrGSI1SK] = store.S(store.Join(seqKey(sh.Seq), sh.ID))
	return it, nil
}

// decode reads a shipment item (or stream image).
func decode(img store.Image) (*Shipment, error) {
	var sh Shipment
	if err := img.Decode(&sh); err != nil {
		return nil, fmt.Errorf("decode shipment: %w", err)
	}
	return &sh, nil
}

// get reads one shipment with a strongly consistent read; nil when there
// is none.
func get(ctx context.Context, t store.Table, account, id string) (*Shipment, error) {
	img, err := t.Item(ctx, key(account, id), true)
	if err != nil || !img.Exists() {
		return nil, err
	}
	return decode(img)
}

// Counts of the shipment lists (store.Counts), in one item, so that a
// shipment's creation or change of sync status is one write of it: all
// shipments, and those of each sync status.
var shipmentsCount = store.CountName{List: "shipments", Value: store.CountAll}

// statusCount is the count of the shipments of sync status status.
func statusCount(status string) store.CountName {
	return store.CountName{List: "shipments", Value: store.CountAll, Attr: status}
}

// errRaced is a save that lost to another write of the shipment.
var errRaced = fmt.Errorf("shipment: %w", store.ErrRaced)

// save writes sh if it is still at the revision it was read at, and moves
// sh.Rev on: one PutItem, or with the counts of the sync statuses when sh
// left status was (one TransactWriteItems).
func save(ctx context.Context, t store.Table, account string, sh *Shipment, was string) error {
	read := sh.Rev
	sh.Rev++
	it, err := item(account, sh)
	if err != nil {
		return err
	}
	counts := store.Counts{}
	if was != sh.SyncStatus {
		if was != "" { // a shipment recorded before tracking went to channels is in no status count
			counts.Add(statusCount(was), -1)
		}
		counts.Add(statusCount(sh.SyncStatus), 1)
	}
	put := store.Put(it, "#rev = :rev", map[string]types.AttributeValue{":rev": store.N(read)})
	err = t.Commit(ctx, append([]store.Write{put}, counts.Writes(account)...))
	if store.ConditionFailed(err) {
		sh.Rev = read
		return errRaced
	}
	if err != nil {
		return fmt.Errorf("save shipment %s: %w", sh.ID, err)
	}
	return nil
}

// query is the Query of the shipments a filter selects, in creation order:
// the account's partition, or GSI1 for one order; a status filter is a
// FilterExpression.
func query(account string, f Filter) dynamodb.QueryInput {
	in := dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(store.PK(account, kindShipment))},
	}
	if f.Seq > 0 {
		in.IndexName = aws.String(store.GSI1)
		in.KeyConditionExpression = aws.String("GSI1PK = :pk AND begins_with(GSI1SK, :prefix)")
		in.ExpressionAttributeValues[":pk"] = store.S(store.PK(account, kindByOrder))
		in.ExpressionAttributeValues[":prefix"] = store.S(seqKey(f.Seq) + store.Sep)
	}
	if f.Status != "" {
		in.FilterExpression = aws.String("#sync_status = :status")
		in.ExpressionAttributeNames = map[string]string{"#sync_status": attrStatus}
		in.ExpressionAttributeValues[":status"] = store.S(f.Status)
	}
	return in
}

// listPage reads page p of the shipments the filter selects, in creation
// order (store.Table.PageOf), their number: the exact count of all
// shipments or of a sync status, a bounded count of one order's (-1 when
// the bound came first, which a few shipments of one order never reach),
// and the next page's cursor.
func listPage(ctx context.Context, t store.Table, account string, f Filter, p paging.Page) ([]*Shipment, int, *paging.Cursor, error) {
	q := store.PageQuery{Account: account, List: fmt.Sprintf("shipments|%d|%q", f.Seq, f.Status), Input: query(account, f), Bounded: true}
	if f.Seq == 0 {
		name := shipmentsCount
		if f.Status != "" {
			name = statusCount(f.Status)
		}
		q.Count = &name
	}
	page, err := t.PageOf(ctx, q, p)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("list shipments: %w", err)
	}
	out := make([]*Shipment, 0, len(page.Items))
	for _, it := range page.Items {
		sh, err := decode(store.ImageOf(it))
		if err != nil {
			return nil, 0, nil, err
		}
		out = append(out, sh)
	}
	return out, int(page.Total), page.Next, nil
}

// shipmentWrites are the writes of shipment sh besides the order's, in
// this order: one inventory.Ship per record of records (the moves), the
// shipment record (which must be new), when sh names its warehouse a
// check that the warehouse exists, the mark of what it ships (repeat,
// which must be new: see Create), and the counts of the shipment lists
// (without a condition). shipFailure reads a cancellation by that order.
func (s Service) shipmentWrites(account string, sh Shipment, repeat string, moves map[allocation.Record]move, records []allocation.Record) ([]store.Write, error) {
	var writes []store.Write
	for _, r := range records {
		m := moves[r]
		writes = append(writes, s.Inventory.Ship(account, r.SKU, r.Warehouse, m.Qty, m.FromReserved))
	}
	sh.Rev = 1
	it, err := item(account, &sh)
	if err != nil {
		return nil, err
	}
	writes = append(writes, store.Put(it, "attribute_not_exists(PK)", nil))
	if sh.WarehouseUUID != nil {
		writes = append(writes, s.Warehouses.Exists(account, *sh.WarehouseUUID))
	}
	mark := repeatKey(account, sh.Seq, repeat)
	mark["shipment_id"] = store.S(sh.ID)
	counts := store.Counts{shipmentsCount: 1, statusCount(sh.SyncStatus): 1}
	return append(append(writes, store.Put(mark, "attribute_not_exists(PK)", nil)), counts.Writes(account)...), nil
}

// repeatKey is the key of the mark of the order seq's shipment whose
// fingerprint is repeat (Request.Repeat).
func repeatKey(account string, seq int64, repeat string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindRepeat), store.Join(seqKey(seq), repeat))
}

// findRepeat returns the id of the order seq's shipment whose fingerprint
// is repeat, if there is one (strongly consistent).
func findRepeat(ctx context.Context, t store.Table, account string, seq int64, repeat string) (string, bool, error) {
	var m struct {
		ID string `dynamodbav:"shipment_id"`
	}
	found, err := t.Get(ctx, repeatKey(account, seq, repeat), &m, true)
	if err != nil {
		return "", false, fmt.Errorf("read a shipment's mark: %w", err)
	}
	return m.ID, found, nil
}

// shipFailure maps a failed shipment transaction of nWrites shipment
// writes (shipmentWrites) whose moves are at records: the order's
// shipment of the same things exists is errRepeat, an unknown warehouse
// is 404, a record without the stock is 422, a change of the order is a
// retry.
func shipFailure(err error, nWrites int, records []allocation.Record) error {
	reasons := store.CancellationReasons(err)
	if len(reasons) < nWrites || reasons[0] == "ConditionalCheckFailed" || store.TransactionConflict(err) {
		return err
	}
	tail := reasons[len(reasons)-nWrites:]
	if tail[len(tail)-2] == "ConditionalCheckFailed" { // the mark, before the counts
		return errRepeat
	}
	if len(tail) > len(records)+3 && tail[len(records)+1] == "ConditionalCheckFailed" { // the warehouse, when named
		return errs.NotFound(warehouses.NotFoundMessage)
	}
	for i, reason := range tail[:len(records)] {
		if reason == "ConditionalCheckFailed" {
			return errs.Invalid("Not enough stock to ship %s", describe(records[i]))
		}
	}
	return err
}
