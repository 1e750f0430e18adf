package orders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// Service serves the order and fulfillment endpoints, imports orders, and
// keeps allocations right when stock or warehouses change.
type Service struct {
	Table store.Table
	// Warehouses, Inventory, Channels, Listings and Catalog are the
	// neighbours the domain reads (and Inventory's reservations, which it
	// commits with its orders), wired in pkg/app. Of the warehouses it
	// reads what the inventory domain reads too.
	Warehouses inventory.WarehouseReader
	Inventory  StockRecords
	Channels   ChannelReader
	Listings   LinkReader
	Catalog    ProductLookup
}

// StockRecords reads the account's inventory records and builds the
// reservation changes an order's save commits (the inventory service).
type StockRecords interface {
	All(ctx context.Context, account string) ([]inventory.Record, error)
	Records(ctx context.Context, account string, rs []inventory.SKUWarehouse) ([]inventory.Record, error)
	BySKU(ctx context.Context, account string, skus []string) (map[string][]inventory.Record, error)
	Reserve(account, sku, warehouse string, qty int) store.Write
	// Ship is the write that takes qty units out of on_hand, fromReserved
	// of them reserved: a channel's own shipment of an order's lines.
	Ship(account, sku, warehouse string, qty, fromReserved int) store.Write
}

// ChannelReader reads one channel of the account (the channels service).
type ChannelReader interface {
	Get(ctx context.Context, account, uuid string) (channels.Channel, error)
}

// LinkReader reads the explicit links of a channel's SKUs (the listings
// service, Links).
type LinkReader interface {
	Links(ctx context.Context, account, channel string, channelSKUs []string) (map[string]string, error)
}

// ProductLookup reads the products of SKUs (the catalog service).
type ProductLookup interface {
	Lookup(ctx context.Context, account string, skus []string) (map[string]catalog.Product, error)
}

// NotFoundMessage is the API error of an unknown order.
const NotFoundMessage = "Order not found"

// ErrRetry marks a write that lost a race (a condition on the order's
// version or on stock failed, or a transaction conflict): read again and
// recompute. It is a store.ErrRaced, which store.Retry with store.Raced
// retries.
var ErrRetry = fmt.Errorf("concurrent change: %w", store.ErrRaced)

// Get reads one order of the account, as stored (without the computed
// fields of the API's output): one strongly consistent GetItem.
func (s Service) Get(ctx context.Context, account string, seq int64) (*Order, error) {
	return getOrder(ctx, s.Table, account, seq)
}

// List returns page p of the account's orders that f selects, in
// (ordered_at, sb_order_seq) order, as the API shows them, and the size of
// the list. Cost: one Query, and for a status filter one BatchGetItem,
// besides the pager's read of the page's start and count
// (docs/orders.md, "Call budgets").
func (s Service) List(ctx context.Context, account string, f Filter, p paging.Page) (paging.Listing[Order], error) {
	list, err := s.list(ctx, account, f, p)
	if err != nil {
		return paging.Listing[Order]{}, err
	}
	for i := range list.Items {
		list.Items[i].forOutput()
	}
	return list, nil
}

// Fulfillments returns page p of the open orders allocated at warehouse wh
// that f selects, each with only its lines allocated there (fulfillment),
// and the size of the list. A filter on sb_status other than open selects
// nothing. An empty page of an unknown warehouse is errs.NotFound.
func (s Service) Fulfillments(ctx context.Context, account, wh string, f Filter, p paging.Page) (paging.Listing[Order], error) {
	list := paging.Listing[Order]{Items: []Order{}}
	if f.Status == "" || f.Status == StatusOpen {
		if l := fulfillmentQuery(account, wh, f); l != nil {
			var err error
			if list, err = l.orders(ctx, s.Table, p); err != nil {
				return paging.Listing[Order]{}, err
			}
		}
	}
	out := paging.Listing[Order]{Total: list.Total, Next: list.Next, Items: make([]Order, 0, len(list.Items))}
	for _, o := range list.Items {
		if fo, ok := fulfillment(o, wh); ok {
			out.Items = append(out.Items, fo)
		}
	}
	if len(out.Items) == 0 {
		if _, err := s.Warehouses.Get(ctx, account, wh); err != nil {
			return paging.Listing[Order]{}, err
		}
	}
	return out, nil
}

// Import imports documents into the account (docs/orders.md, "Import"),
// each on its own: an invalid document gets a result with its error and
// the others still import. The error return is for failures of the service
// itself.
func (s Service) Import(ctx context.Context, account string, docs []json.RawMessage) ([]Result, error) {
	im := &importer{Service: s, account: account, channels: map[string]*channels.Channel{}}
	out := make([]Result, 0, len(docs))
	for _, raw := range docs {
		res, err := im.one(ctx, raw)
		if err != nil {
			return out, err
		}
		out = append(out, res)
	}
	return out, nil
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
	if err := s.save(ctx, account, cur, next, shipment, shipped); err != nil {
		return nil, err
	}
	return released(cur, next, shipped), nil
}

// StockAvailable implements inventory.StockListener: after records were
// created or stock was released at them, it allocates the unassigned
// quantities of their SKUs, oldest order first.
func (s Service) StockAvailable(ctx context.Context, account string, records []inventory.SKUWarehouse) error {
	skus := map[string]bool{}
	for _, r := range records {
		skus[r.SKU] = true
	}
	return s.allocateWaiting(ctx, account, slices.Sorted(maps.Keys(skus)))
}

// Service is the stock listener of the inventory domain (wired in pkg/app),
// told the results of adjustments.
var _ inventory.StockAdjuster = Service{}

// StockAdjusted implements inventory.StockAdjuster: after an adjustment was
// applied, given each item's result and the record's quantities its write
// returned, it first takes back allocations where the write left more
// reserved than on hand (newest orders first, re-planning them elsewhere),
// then allocates the unassigned quantities of the SKUs adjusted, oldest
// order first. Only the records left over-reserved are read again (they may
// have changed since).
func (s Service) StockAdjusted(ctx context.Context, account string, results []inventory.Result) error {
	var changed, over []inventory.SKUWarehouse
	for _, r := range results {
		if !r.Wrote() {
			continue
		}
		rec := inventory.SKUWarehouse{SKU: r.SKU, Warehouse: r.Warehouse}
		changed = append(changed, rec)
		if r.Available == nil || *r.Available < 0 {
			over = append(over, rec)
		}
	}
	if err := s.fixOverReserved(ctx, account, over); err != nil {
		return err
	}
	return s.StockAvailable(ctx, account, changed)
}

// OnArchive is the warehouses.ArchiveHook: the open orders allocated at the
// archived warehouse release it and are planned again over the others.
func (s Service) OnArchive(ctx context.Context, account, warehouse string) error {
	seqs, err := allocatedAtWarehouse(ctx, s.Table, account, warehouse)
	if err != nil {
		return err
	}
	for _, seq := range seqs {
		if err := s.reallocate(ctx, account, seq, warehouse, nil); err != nil {
			return fmt.Errorf("re-allocate order %d: %w", seq, err)
		}
	}
	return nil
}

// CheckInvariants verifies the invariants of docs/orders.md over a whole
// account, reading everything (for tests and operators, never on a request
// path): every inventory record has available = on_hand - reserved and
// reserves exactly the open orders' allocations there; every open line has
// allocated + unassigned + quantity_fulfilled + cancelled = quantity with nothing
// negative, and lines that are cancelled or of orders that are not open
// hold nothing; statuses follow from the lines; sequence numbers run from 1
// with no gap and each has its idempotency key; the index items are
// exactly those the orders imply, and the lists' counts their sizes. It
// returns every violation found, joined.
func (s Service) CheckInvariants(ctx context.Context, account string) error {
	var violations []error
	bad := func(format string, args ...any) { violations = append(violations, fmt.Errorf(format, args...)) }
	all, err := allOrders(ctx, s.Table, account)
	if err != nil {
		return err
	}
	checkOrders(all, bad)
	if records, err := s.Inventory.All(ctx, account); err != nil {
		bad("%w", err)
	} else {
		checkStock(records, reservedBy(all), bad)
	}
	checkRefs(ctx, s.Table, account, all, bad)
	whs, err := s.Warehouses.List(ctx, account)
	if err != nil {
		return err
	}
	if err := checkIndex(ctx, s.Table, account, all, whs, bad); err != nil {
		return err
	}
	if err := checkCounts(ctx, s.Table, account, all, whs, bad); err != nil {
		return err
	}
	return errors.Join(violations...)
}

// retry runs op, every read-modify-write of an order (Get, change a Clone,
// save), with store.Retry: again while it returns ErrRetry, at most
// store.BusyAttempts times.
func retry(ctx context.Context, op func() error) error {
	return store.Retry(ctx, store.BusyAttempts, store.Raced, op)
}
