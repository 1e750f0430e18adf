package orders

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
)

// Import results.
const (
	ResultCreated   = "created"
	ResultUpdated   = "updated"
	ResultUnchanged = "unchanged"
	ResultError     = "error"
)

// Result is the outcome of importing one document.
type Result struct {
	ChannelUUID string `json:"channel_uuid"`
	DisplayRef  string `json:"display_ref"`
	Seq         *int64 `json:"sb_order_seq"`
	Result      string `json:"result"`
	Error       string `json:"error,omitempty"`
}

// importer imports a batch of documents into one account (Service.Import)
// and carries what they share: channels and the last sequence number read.
type importer struct {
	Service
	account  string
	channels map[string]*channels.Channel
	lastSeq  *int64
	// waiting is what the order just saved still needs: SKUs with
	// unassigned quantities.
	waiting []string
}

func (im *importer) one(ctx context.Context, raw json.RawMessage) (Result, error) {
	var res Result
	d, err := parseDocument(raw)
	var de *docError
	if errors.As(err, &de) {
		var id struct {
			ChannelUUID any `json:"channel_uuid"`
			DisplayRef  any `json:"display_ref"`
		}
		_ = json.Unmarshal(raw, &id)
		res.ChannelUUID, res.DisplayRef = text(id.ChannelUUID), text(id.DisplayRef)
		res.Result, res.Error = ResultError, de.msg
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.ChannelUUID, res.DisplayRef = d.ChannelUUID, d.DisplayRef
	ch, err := im.channel(ctx, d.ChannelUUID)
	if errors.Is(err, channels.ErrNotFound) {
		res.Result, res.Error = ResultError, "channel_uuid is not a channel of this account"
		return res, nil
	}
	if err != nil {
		return res, err
	}
	var freed []inventory.SKUWarehouse
	err = retry(ctx, func() error {
		var err error
		im.waiting = nil
		res.Seq, res.Result, freed, err = im.apply(ctx, d, ch)
		if errors.Is(err, ErrRetry) {
			im.lastSeq = nil
		}
		return err
	})
	if err != nil {
		return res, fmt.Errorf("import %s/%s: %w", d.ChannelUUID, d.DisplayRef, err)
	}
	if len(freed) > 0 {
		if err := im.StockAvailable(ctx, im.account, freed); err != nil {
			return res, fmt.Errorf("allocate released stock: %w", err)
		}
	}
	if len(im.waiting) > 0 {
		// Stock may have arrived between the plan's read and the save, when
		// its listener could not see this order yet: look once more, now
		// that the order waits in the queue (both reads are consistent, so
		// one of the two sides sees the other).
		if err := im.allocateWaiting(ctx, im.account, im.waiting); err != nil {
			return res, fmt.Errorf("allocate arrived stock: %w", err)
		}
	}
	return res, nil
}

// text renders a JSON identity value for an error result.
func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

func (im *importer) channel(ctx context.Context, id string) (*channels.Channel, error) {
	if c, ok := im.channels[id]; ok {
		return c, nil
	}
	c, err := im.Channels.Get(ctx, im.account, id)
	if err != nil {
		return nil, err
	}
	im.channels[id] = &c
	return &c, nil
}

// apply imports d once: it creates the order or updates it, returning its
// seq, the result and the records it released stock at.
func (im *importer) apply(ctx context.Context, d *document, ch *channels.Channel) (*int64, string, []inventory.SKUWarehouse, error) {
	seq, found, err := refSeq(ctx, im.Table, im.account, d.ChannelUUID, d.DisplayRef)
	if err != nil {
		return nil, "", nil, err
	}
	if !found {
		seq, err := im.create(ctx, d, ch)
		return seq, ResultCreated, nil, err
	}
	cur, err := im.Get(ctx, im.account, seq)
	if err != nil {
		return nil, "", nil, err
	}
	next, err := merge(cur, d)
	if err != nil {
		return nil, "", nil, err
	}
	now := isotime.Format(time.Now())
	moves, shippedMore := applyChannel(next, d, false, now)
	if shippedMore {
		next.ShippedAt = &now
	}
	if err := im.resolve(ctx, next); err != nil {
		return nil, "", nil, err
	}
	next.derive()
	if len(moves) == 0 {
		// (With a channel's shipment, what it leaves unassigned waits for
		// allocateWaiting, so no record takes a reservation and a shipment
		// in one transaction.)
		if err := im.allocate(ctx, im.account, next, ""); err != nil {
			return nil, "", nil, err
		}
	}
	if reflect.DeepEqual(cur, next) {
		return &seq, ResultUnchanged, nil, nil
	}
	extra, covered := im.shipWrites(cur, next, moves)
	if err := im.save(ctx, im.account, cur, next, extra, covered); err != nil {
		return nil, "", nil, err
	}
	im.waiting = next.needs()
	return &seq, ResultUpdated, released(cur, next, moves), nil
}

// shipWrites are the inventory.Ship writes of a channel's shipment that
// takes cur to next, moving the units of moves out of on_hand and their
// reservations (with any other reservation the change gives back at the
// same record, so each record has one write), and the reservation changes
// they cover.
func (im *importer) shipWrites(cur, next *Order, moves channelShip) ([]store.Write, map[allocation.Record]int) {
	covered := map[allocation.Record]int{}
	for _, d := range reserveDeltas(cur, next) {
		if _, ok := moves[d.Record]; ok {
			covered[d.Record] = -d.Qty
		}
	}
	records := slices.SortedFunc(maps.Keys(moves), func(a, b allocation.Record) int {
		return cmp.Or(cmp.Compare(a.SKU, b.SKU), cmp.Compare(a.Warehouse, b.Warehouse))
	})
	writes := make([]store.Write, 0, len(records))
	for _, r := range records {
		writes = append(writes, im.Inventory.Ship(im.account, r.SKU, r.Warehouse, moves[r], covered[r]))
	}
	return writes, covered
}

// create stores a new order with the next sequence number, allocated.
func (im *importer) create(ctx context.Context, d *document, ch *channels.Channel) (*int64, error) {
	o, err := newOrder(d, ch)
	if err != nil {
		return nil, err
	}
	if err := im.resolve(ctx, o); err != nil {
		return nil, err
	}
	prev, err := im.seq(ctx)
	if err != nil {
		return nil, err
	}
	o.Seq = prev + 1
	now := isotime.Format(time.Now())
	if _, shipped := applyChannel(o, d, true, now); shipped {
		o.ShippedAt = &now
	}
	o.derive()
	if err := im.allocate(ctx, im.account, o, ""); err != nil {
		return nil, err
	}
	if err := im.save(ctx, im.account, nil, o, createWrites(im.account, d.ChannelUUID, d.DisplayRef, prev), nil); err != nil {
		return nil, err
	}
	im.lastSeq = &o.Seq
	im.waiting = o.needs()
	return &o.Seq, nil
}

// seq returns the account's last sequence number.
func (im *importer) seq(ctx context.Context) (int64, error) {
	if im.lastSeq != nil {
		return *im.lastSeq, nil
	}
	return lastSeq(ctx, im.Table, im.account)
}

// newOrder is the order a first import of d into channel ch creates,
// before its seq, its inventory SKUs, its statuses and its allocation.
func newOrder(d *document, ch *channels.Channel) (*Order, error) {
	o := &Order{
		DisplayRef: d.DisplayRef, ChannelUUID: ch.UUID, ChannelName: ch.Name,
		ChannelTypeDisplayName: ch.ChannelTypeDisplayName, OrderedAt: d.OrderedAt, PaymentStatus: None,
	}
	if err := overlay(o, d.Fields); err != nil {
		return nil, err
	}
	if d.Payment != "" {
		o.PaymentStatus = d.Payment
	}
	o.Items = make([]Item, len(d.Items))
	for i, di := range d.Items {
		it := Item{OrderItemRef: di.Ref, SKU: di.SKU, Quantity: di.Quantity}
		if err := it.setFields(di.Fields); err != nil {
			return nil, err
		}
		o.Items[i] = it
	}
	return o, nil
}

// merge applies a re-import to cur (see docs/orders.md, "Import"):
// payment, cancellation, notes, addresses, dates and line details change;
// the lines' SKUs and quantities, and ordered_at, do not. A cancelled order
// stays cancelled and a completed one cannot be cancelled. The caller
// resolves, derives and plans the result.
func merge(cur *Order, d *document) (*Order, error) {
	next := cur.Clone()
	fields := map[string]any{}
	for k, v := range d.Fields {
		fields[k] = v
	}
	if cur.CancelledAt != nil || cur.Status == StatusCompleted {
		delete(fields, "cancelled_at")
	} else if v, ok := fields["cancelled_at"]; ok && v == nil {
		delete(fields, "cancelled_at")
	}
	items, version := next.Items, next.Version
	if err := overlay(&next, fields); err != nil {
		return nil, err
	}
	next.Items, next.Version = items, version
	if d.Payment != "" {
		next.PaymentStatus = d.Payment
	}
	for _, di := range d.Items {
		for i := range next.Items {
			it := &next.Items[i]
			if it.OrderItemRef != di.Ref {
				continue
			}
			f := map[string]any{}
			for k, v := range di.Fields {
				f[k] = v
			}
			if it.CancelledAt != nil || cur.Status != StatusOpen || f["cancelled_at"] == nil {
				delete(f, "cancelled_at")
			}
			if err := it.setFields(f); err != nil {
				return nil, err
			}
		}
	}
	return &next, nil
}

// resolve sets the inventory_sku of o's lines that have none: the product
// a listing's explicit link maps the channel SKU to (none when the listing
// is explicitly unlinked), else the product of that SKU.
func (im *importer) resolve(ctx context.Context, o *Order) error {
	var skus []string
	for _, it := range o.Items {
		if it.InventorySKU == nil {
			skus = append(skus, it.SKU)
		}
	}
	if len(skus) == 0 || !o.open() && o.Version > 0 {
		return nil
	}
	links, err := im.Listings.Links(ctx, im.account, o.ChannelUUID, skus)
	if err != nil {
		return err
	}
	products, err := im.Catalog.Lookup(ctx, im.account, skus)
	if err != nil {
		return fmt.Errorf("look up products: %w", err)
	}
	for i := range o.Items {
		it := &o.Items[i]
		if it.InventorySKU != nil {
			continue
		}
		if p, ok := links[it.SKU]; ok {
			if p != "" {
				it.InventorySKU = &p
			}
		} else if _, ok := products[it.SKU]; ok {
			sku := it.SKU
			it.InventorySKU = &sku
		}
	}
	return nil
}
