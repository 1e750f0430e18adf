package orders

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"
)

// maxTxItems is the most items one TransactWriteItems takes.
const maxTxItems = 100

// ErrRetry marks a write that lost a race (a condition on the order's
// version or on stock failed, or a transaction conflict): read again and
// recompute.
var ErrRetry = errors.New("concurrent change")

// ErrNotFound is returned for an unknown order.
var ErrNotFound = errors.New("order not found")

// Get reads one order of the account: one strongly consistent GetItem.
func (s Service) Get(ctx context.Context, account string, seq int64) (*Order, error) {
	t := s.Table
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: t.TableName(), Key: orderKey(account, seq), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, fmt.Errorf("get order %d: %w", seq, err)
	}
	if out.Item == nil {
		return nil, ErrNotFound
	}
	return decodeOrder(out.Item)
}

// decodeOrder unmarshals a stored order.
func decodeOrder(item map[string]types.AttributeValue) (*Order, error) {
	var o Order
	if err := attributevalue.UnmarshalMap(item, &o); err != nil {
		return nil, fmt.Errorf("unmarshal order: %w", err)
	}
	return &o, nil
}

// getMany reads the orders with the given seqs and returns them in that
// order (unknown ones skipped): one BatchGetItem per 100.
func getMany(ctx context.Context, t store.Table, account string, seqs []int64) ([]Order, error) {
	keys := make([]map[string]types.AttributeValue, len(seqs))
	for i, s := range seqs {
		keys[i] = orderKey(account, s)
	}
	items, err := t.BatchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("read orders: %w", err)
	}
	bySeq := make(map[int64]Order, len(items))
	for _, it := range items {
		o, err := decodeOrder(it)
		if err != nil {
			return nil, err
		}
		bySeq[o.Seq] = *o
	}
	out := make([]Order, 0, len(seqs))
	for _, s := range seqs {
		if o, ok := bySeq[s]; ok {
			out = append(out, o)
		}
	}
	return out, nil
}

// save writes next over cur (nil: next is new) in transactions that keep
// DESIGN.md section 6's invariants: the order item (conditioned on its
// version), its listing items, and one reservation change per inventory
// record whose allocation differs, plus extra (written with the last
// step). covered names reservation changes that extra makes itself (a
// shipment's inventory.Ship of reserved units, see SaveShipment). When
// everything does not fit in one transaction, the allocation changes go
// first in steps that each hold the invariants on their own. A lost race is
// ErrRetry.
func save(ctx context.Context, t store.Table, account string, cur, next *Order, extra []store.Write, covered map[allocation.Record]int) error {
	next.derive()
	if cur == nil {
		create := extra
		if 1+len(indexItems(account, next))+len(reserveDeltas(nil, next))+len(extra) > maxTxItems {
			base := next.Clone()
			for i := range base.Items {
				base.Items[i].Alloc = nil
			}
			if err := write(ctx, t, account, nil, &base, extra, nil); err != nil {
				return err
			}
			cur, create = &base, nil
		}
		if cur == nil {
			return write(ctx, t, account, nil, next, create, nil)
		}
	}
	for {
		fixed := 1 + len(indexDiff(account, cur, next)) + len(extra)
		deltas := reserveDeltas(cur, next)
		if fixed+len(deltas) <= maxTxItems {
			return write(ctx, t, account, cur, next, extra, covered)
		}
		room := maxTxItems - 1 - 2*len(indexItems(account, cur)) - len(indexItems(account, next))
		if room < 1 {
			return fmt.Errorf("order %d touches too many warehouses for one transaction", next.Seq)
		}
		step := cur.Clone()
		for _, d := range deltas[:min(room, len(deltas))] {
			for i := range step.Items {
				it := &step.Items[i]
				if it.InventorySKU != nil && *it.InventorySKU == d.SKU {
					it.Alloc = AddQty(it.Alloc, d.Warehouse, next.Items[i].AllocatedAt(d.Warehouse)-it.AllocatedAt(d.Warehouse))
				}
			}
		}
		if err := write(ctx, t, account, cur, &step, nil, nil); err != nil {
			return err
		}
		cur = &step
	}
}

// SaveShipment commits the order side of a shipment (pkg/shipments): next,
// a Clone of cur (read with Get) whose lines' quantity_fulfilled, Alloc and
// Shipped and whose shipped_at the shipment changed, written over cur in the
// same TransactWriteItems as shipment, the shipment's own writes (its
// inventory.Ship per record, its record, its checks). Those go last in the
// transaction, in order, so the last len(shipment) reasons of a cancelled
// transaction (store.CancellationReasons) are theirs. shipped is the
// reserved units the Ship writes take out of each record themselves, which
// the order's reservation changes must not release again. next's statuses
// are derived here. It returns the records where the change released stock
// to other orders, for Service.StockAvailable.
//
// A cancelled transaction is ErrRetry, wrapping the cancellation: the
// caller tells a lost race on the order (the first reason) from a failed
// condition of its own writes (the last reasons). As for every save, an
// order whose allocation changes do not fit in one transaction with
// everything else has them written first, in steps of their own; the
// shipment's writes always go with the order's last write.
func (s Service) SaveShipment(ctx context.Context, account string, cur, next *Order, shipment []store.Write, shipped map[allocation.Record]int) ([]inventory.SKUWarehouse, error) {
	if err := save(ctx, s.Table, account, cur, next, shipment, shipped); err != nil {
		return nil, err
	}
	return released(cur, next, shipped), nil
}

// delta is a change of the quantity reserved at one inventory record.
type delta struct {
	allocation.Record
	Qty int
}

// reserveDeltas returns the reservation changes that take cur's allocations
// to next's, in a fixed order.
func reserveDeltas(cur, next *Order) []delta {
	sum := map[allocation.Record]int{}
	add := func(o *Order, sign int) {
		if o == nil {
			return
		}
		for _, it := range o.Items {
			for _, a := range it.Alloc {
				sum[allocation.Record{SKU: *it.InventorySKU, Warehouse: a.WarehouseUUID}] += sign * a.Quantity
			}
		}
	}
	add(cur, -1)
	add(next, 1)
	var out []delta
	for r, q := range sum {
		if q != 0 {
			out = append(out, delta{r, q})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].SKU != out[j].SKU {
			return out[i].SKU < out[j].SKU
		}
		return out[i].Warehouse < out[j].Warehouse
	})
	return out
}

// indexDiff returns the writes that take cur's listing items to next's.
func indexDiff(account string, cur, next *Order) []store.Write {
	var old map[string]map[string]types.AttributeValue
	if cur != nil {
		old = indexItems(account, cur)
	}
	now := indexItems(account, next)
	var out []store.Write
	for _, pk := range sortedKeys(now) {
		if !reflect.DeepEqual(old[pk], now[pk]) {
			out = append(out, store.Put(now[pk], "", nil))
		}
	}
	for _, pk := range sortedKeys(old) {
		if _, ok := now[pk]; !ok {
			out = append(out, store.Delete(store.Key(pk, orderSK(cur)), "", nil))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// write runs one transaction taking cur to next (see save).
func write(ctx context.Context, t store.Table, account string, cur, next *Order, extra []store.Write, covered map[allocation.Record]int) error {
	item, err := attributevalue.MarshalMap(next)
	if err != nil {
		return fmt.Errorf("marshal order: %w", err)
	}
	for k, v := range orderKey(account, next.Seq) {
		item[k] = v
	}
	cond, values := "attribute_not_exists(PK)", map[string]types.AttributeValue(nil)
	if cur == nil {
		next.Version = 1
	} else {
		next.Version = cur.Version + 1
		cond = "ver = :v"
		values = map[string]types.AttributeValue{":v": &types.AttributeValueMemberN{Value: strconv.FormatInt(cur.Version, 10)}}
	}
	item["ver"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(next.Version, 10)}
	writes := append([]store.Write{store.Put(item, cond, values)}, indexDiff(account, cur, next)...)
	stock := inventory.Service{Table: t}
	for _, d := range reserveDeltas(cur, next) {
		if q := d.Qty + covered[d.Record]; q != 0 {
			writes = append(writes, stock.Reserve(account, d.SKU, d.Warehouse, q))
		}
	}
	writes = append(writes, extra...)
	err = t.Commit(ctx, writes)
	if err == nil {
		cursors.forget(account)
		return nil
	}
	if store.CancellationReasons(err) != nil || store.ConditionFailed(err) {
		return fmt.Errorf("save order %d: %w: %w", next.Seq, ErrRetry, err)
	}
	return fmt.Errorf("save order %d: %w", next.Seq, err)
}

// maxAttempts bounds the retries of an operation that keeps losing races.
const maxAttempts = 25

// Retry runs op until it does not return ErrRetry, with jittered backoff,
// at most maxAttempts times: the loop of every read-modify-write of an
// order (Get, change a Clone, save).
func Retry(ctx context.Context, op func() error) error {
	var err error
	for attempt := range maxAttempts {
		if err = op(); !errors.Is(err, ErrRetry) {
			return err
		}
		d := time.Duration(rand.IntN(5*(attempt+1))+1) * time.Millisecond
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return fmt.Errorf("gave up after %d attempts: %w", maxAttempts, err)
}
