package listings

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
	"github.com/multisell/multisell/pkg/wire"
)

// accountsAtOnce is how many accounts' work of one batch runs at once (an
// account's own work stays in order).
const accountsAtOnce = 4

// plan is the work one account's records of a stream batch ask for,
// coalesced: each SKU, channel, listing and product is recomputed once
// however many records named it.
type plan struct {
	skus       []string // inventory SKUs whose stock changed: their listings and products
	channels   []string // channels whose rules or state changed: their listings
	warehouses []string // warehouses archived or restored: the SKUs they hold
	listings   []*record
	created    []string                // SKUs that became products: listings linking by equal SKU
	copies     []inventory.ProductCopy // product writes the inventory records copy
	deleted    []string                // SKUs that stopped being products
	groups     []string                // variation groups whose sum may have changed
	countsDue  []string                // products carrying a change to the catalog's counts
	sends      []*record
	retries    []*record
	holds      []*record // listings whose hold just started: its end is scheduled
	// changes are the account's records, for the shipments' tracking.
	changes []store.Change
}

// add appends s to list unless it holds it.
func add(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Sync is the channel-sync function's work on a batch of stream records,
// accountsAtOnce accounts at a time: it recomputes the listings and product
// quantities the records affect, sends the outbox messages of new versions
// and schedules the retries of failed pushes; each account's records also
// go to Tracking, which sends the tracking of shipments. When an account's
// work fails, Sync returns the sequence number of that account's first
// record, so the batch is retried from there (everything Sync does is
// idempotent: a replayed record finds nothing left to change).
func (s Service) Sync(ctx context.Context, changes []store.Change) string {
	return store.ByAccount(ctx, changes, accountsAtOnce, func(ctx context.Context, account string, changes []store.Change) error {
		p := &plan{changes: changes}
		for _, c := range changes {
			if err := p.add(c); err != nil {
				return err
			}
		}
		return s.run(ctx, account, p)
	}, func(account string, err error) {
		logctx.From(ctx).Error("channel sync failed", "account_id", account, "error", err.Error())
	})
}

// add records what one change asks for.
func (p *plan) add(c store.Change) error {
	if sku, ok := inventory.StockChanged(c); ok {
		p.skus = add(p.skus, sku)
	}
	if wh, ok := warehouses.ArchiveChanged(c); ok {
		p.warehouses = add(p.warehouses, wh)
	}
	if ch, ok := channels.SyncChanged(c); ok {
		p.channels = add(p.channels, ch)
	}
	if pc, ok := catalog.ProductChanged(c); ok {
		switch {
		case pc.Created:
			p.created = add(p.created, pc.SKU)
			p.skus = add(p.skus, pc.SKU)
		case pc.Deleted:
			p.deleted = add(p.deleted, pc.SKU)
		}
		for _, g := range pc.Groups {
			p.groups = add(p.groups, g)
		}
	}
	if sku, ok := catalog.CountDue(c); ok {
		p.countsDue = add(p.countsDue, sku)
	}
	if err := p.addCopy(c); err != nil {
		return err
	}
	lc, ok, err := decodeListingChange(c)
	if err != nil || !ok {
		return err
	}
	if lc.recompute {
		p.listings = append(p.listings, lc.rec)
	}
	if lc.send {
		p.sends = latest(p.sends, lc.rec)
	}
	if lc.retry {
		p.retries = append(p.retries, lc.rec)
	}
	if lc.hold {
		p.holds = append(p.holds, lc.rec)
	}
	return nil
}

// addCopy records a product write whose fields the inventory records of its
// SKU show (copied into them: inventory.CopyProducts).
func (p *plan) addCopy(c store.Change) error {
	pc, ok, err := inventory.ProductCopyChanged(c)
	if ok {
		p.copies = append(p.copies, pc)
	}
	return err
}

// latest adds r to sends, in place of an older version of the same listing
// (the batch's records are in order): a version the batch already replaced
// is not sent.
func latest(sends []*record, r *record) []*record {
	for i, s := range sends {
		if s.ChannelUUID == r.ChannelUUID && s.ChannelSKU == r.ChannelSKU {
			sends[i] = r
			return sends
		}
	}
	return append(sends, r)
}

// run carries out one account's plan.
func (s Service) run(ctx context.Context, account string, p *plan) error {
	if s.Tracking != nil {
		if err := s.Tracking.Track(ctx, account, p.changes); err != nil {
			return err
		}
	}
	if err := s.send(ctx, account, p); err != nil {
		return err
	}
	if err := s.relink(ctx, account, p); err != nil {
		return err
	}
	if err := s.Catalog.SettleCounts(ctx, account, p.countsDue); err != nil {
		return err
	}
	for _, wh := range p.warehouses {
		skus, err := s.Inventory.SKUsAt(ctx, account, wh)
		if err != nil {
			return err
		}
		for _, sku := range skus {
			p.skus = add(p.skus, sku)
		}
	}
	if len(p.skus)+len(p.channels)+len(p.listings)+len(p.groups) == 0 {
		return s.Inventory.CopyProducts(ctx, account, p.copies, nil)
	}
	v, err := s.view(ctx, account)
	if err != nil {
		return err
	}
	recs, err := s.affected(ctx, account, p)
	if err != nil {
		return err
	}
	skus := slices.Clone(p.skus)
	for _, r := range recs {
		if r.SKU != nil {
			skus = add(skus, *r.SKU)
		}
	}
	// The stock read also finds the records the product copies go to (a
	// new product's SKU is among skus).
	if err := v.readStock(ctx, s.Inventory, account, skus); err != nil {
		return err
	}
	if err := s.Inventory.CopyProducts(ctx, account, p.copies, v.records); err != nil {
		return err
	}
	if len(p.skus) > 0 {
		totals := make(map[string]int64, len(p.skus))
		for _, sku := range p.skus {
			totals[sku] = v.total(sku)
		}
		if err := s.Catalog.SetQuantities(ctx, account, totals); err != nil {
			return err
		}
	}
	for _, g := range p.groups {
		if err := s.Catalog.SumGroup(ctx, account, g); err != nil {
			return err
		}
	}
	for _, r := range recs {
		if err := s.recompute(ctx, account, v, r); err != nil {
			return err
		}
	}
	return nil
}

// readersAtOnce is how many reads of one account's plan (a SKU's or a
// channel's listings, a SKU's auto-linked listings) run at once.
const readersAtOnce = 8

// affected reads the listings the plan recomputes, each once: those
// drawing a changed SKU, those of a changed channel (one Query each, up to
// readersAtOnce at once), and the changed ones.
func (s Service) affected(ctx context.Context, account string, p *plan) ([]*record, error) {
	var out []*record
	seen := map[string]bool{}
	keep := func(recs ...*record) {
		for _, r := range recs {
			if k := sortKey(r.ChannelUUID, r.ChannelSKU); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	keep(p.listings...)
	if len(p.skus) > 0 && len(p.channels) == 0 && len(p.listings) == 0 {
		// Stock changes only: an account without listings (one keys-only
		// read) needs no Query per SKU.
		listed, err := hasListings(ctx, s.Table, account)
		if err != nil || !listed {
			return out, err
		}
	}
	filters := make([]Filter, 0, len(p.skus)+len(p.channels))
	for _, sku := range p.skus {
		filters = append(filters, Filter{SKU: sku})
	}
	for _, ch := range p.channels {
		filters = append(filters, Filter{Channel: ch})
	}
	read := make([][]*record, len(filters))
	err := store.Each(len(filters), readersAtOnce, func(i int) (err error) {
		read[i], err = listAll(ctx, s.Table, account, filters[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, recs := range read {
		keep(recs...)
	}
	return out, nil
}

// recompute decides the listing's wanted state and saves it when it
// changed; a listing written meanwhile is read again and decided anew. A
// new version that goes at once (pace) is sent from here, right after its
// write: the send of the listing's own stream record is the safety net,
// with the same deduplication id, so the outbox drops the second.
func (s Service) recompute(ctx context.Context, account string, v *view, r *record) error {
	var atOnce bool // the saved version goes at once
	err := retry(ctx, func() error {
		atOnce = false
		ch, ok := v.channels[r.ChannelUUID]
		if !ok {
			return nil // the channel is gone: nothing to push to
		}
		if r.SKU != nil {
			if err := v.readStock(ctx, s.Inventory, account, []string{*r.SKU}); err != nil {
				return err
			}
		}
		stock := Stock{}
		if r.SKU != nil {
			stock = v.stock[*r.SKU]
		}
		at := time.Now()
		if !decide(r, ch, stock, isotime.Format(at)) {
			return nil
		}
		atOnce = pace(r, at, s.pushInterval())
		r.UpdatedAt = r.QuantityAt
		err := save(ctx, s.Table, account, r)
		if err == nil {
			return nil
		}
		atOnce = false
		if errors.Is(err, errRaced) {
			fresh, gerr := get(ctx, s.Table, account, r.ChannelUUID, r.ChannelSKU)
			if gerr != nil {
				return gerr
			}
			if fresh == nil {
				return nil // deleted meanwhile
			}
			*r = *fresh
		}
		return err
	})
	if err != nil || !atOnce {
		return err
	}
	return s.sendQuantity(ctx, account, r)
}

// relink links the listings whose channel SKU just became a product (and
// unlinks those whose product went), unless they are linked explicitly:
// up to readersAtOnce SKUs at once (a SKU the batch created, and deleted
// too, is linked). The listing's own stream record then recomputes it.
func (s Service) relink(ctx context.Context, account string, p *plan) error {
	skus := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(p.created), p.deleted...))))
	return store.Each(len(skus), readersAtOnce, func(i int) error {
		return s.relinkSKU(ctx, account, skus[i], slices.Contains(p.created, skus[i]))
	})
}

// relinkSKU links (created) or unlinks the listings that link by equal SKU
// whose channel SKU is sku.
func (s Service) relinkSKU(ctx context.Context, account, sku string, created bool) error {
	recs, err := autoLinked(ctx, s.Table, account, sku)
	if err != nil {
		return err
	}
	for _, r := range recs {
		err := retry(ctx, func() error {
			fresh, err := get(ctx, s.Table, account, r.ChannelUUID, r.ChannelSKU)
			if err != nil || fresh == nil || fresh.Explicit {
				return err
			}
			switch {
			case created && fresh.SKU == nil:
				fresh.SKU = &fresh.ChannelSKU
			case !created && fresh.SKU != nil:
				fresh.SKU = nil
			default:
				return nil
			}
			fresh.UpdatedAt = now()
			return save(ctx, s.Table, account, fresh)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// send puts the plan's new versions on the outbox, schedules its retries
// and the ends of its holds. A send that fails fails the account's work,
// so the records are delivered again: a message may go twice, never zero
// times.
func (s Service) send(ctx context.Context, account string, p *plan) error {
	for _, r := range p.sends {
		if err := s.sendQuantity(ctx, account, r); err != nil {
			return err
		}
	}
	for _, r := range p.holds {
		err := s.Push.Later(ctx, account, holdLeft(r, time.Now(), s.pushInterval()),
			Retry{Type: TypeRetry, ChannelUUID: r.ChannelUUID, ChannelSKU: r.ChannelSKU, Version: r.Held})
		if err != nil {
			return fmt.Errorf("end the hold of listing %s: %w", r.ChannelSKU, err)
		}
	}
	for _, r := range p.retries {
		err := s.Push.Schedule(ctx, account, r.Attempts,
			Retry{Type: TypeRetry, ChannelUUID: r.ChannelUUID, ChannelSKU: r.ChannelSKU, Version: r.Version, Attempt: r.Attempts})
		if err != nil {
			return fmt.Errorf("retry listing %s: %w", r.ChannelSKU, err)
		}
	}
	return nil
}

// sendQuantity sends r's version (and send) to the outbox: one message
// group per listing, one deduplication id per version and send.
func (s Service) sendQuantity(ctx context.Context, account string, r *record) error {
	g := group(account, r.ChannelUUID, r.ChannelSKU)
	err := s.Push.Send(ctx, account, g, dedup(g, r.Version, r.Push), wire.QuantityMessage{
		Header:     wire.Header{Type: wire.TypeListingQuantity, AccountID: account, ChannelUUID: r.ChannelUUID, ChannelType: r.ChannelType},
		ChannelSKU: r.ChannelSKU, ListingRef: r.ListingRef, SKU: r.SKU, Quantity: *r.Quantity,
		ChannelQuantity: r.ChannelQuantity, Version: r.Version, At: r.QuantityAt,
	})
	if err != nil {
		return fmt.Errorf("send listing.quantity: %w", err)
	}
	return nil
}
