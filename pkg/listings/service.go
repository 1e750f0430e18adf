package listings

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// ErrNotFound is an unknown listing.
var ErrNotFound error = errs.NotFound("Listing not found")

// Service is the listings domain: listings, their links and rules, and
// channel sync.
type Service struct {
	Table      store.Table
	Channels   channels.Service
	Catalog    catalog.Service
	Inventory  inventory.Service
	Warehouses warehouses.Service
	// Push is where the listings' quantities go: the channel outbox and
	// the retry queue.
	Push push.Queues
	// PushInterval is the least time between two pushes of a listing
	// (pace); DefaultPushInterval when zero.
	PushInterval time.Duration
	// Tracking is handed each account's records of a stream batch, to
	// send shipments' tracking (the shipments service, wired in pkg/app).
	// Nil: no tracking is sent.
	Tracking Tracking
}

// Tracking is what the stream's records of shipments are handed to: it
// sends their tracking to the channels. An error fails the account's
// records of the batch, which come again.
type Tracking interface {
	Track(ctx context.Context, account string, changes []store.Change) error
}

// pushInterval is the Service's PushInterval, or the default.
func (s Service) pushInterval() time.Duration {
	if s.PushInterval > 0 {
		return s.PushInterval
	}
	return DefaultPushInterval
}

// now is the time of a write, to the second.
func now() string { return isotime.Format(time.Now()) }

// List returns a page of the listings the filter selects, in (channel,
// channel SKU) order (by inventory SKU first with the sku filter): one
// Query from where the page starts (store.Table.Page), and their number
// (a bounded count: -1 past it). A channel the account does not have is
// 404.
func (s Service) List(ctx context.Context, account string, f Filter, p paging.Page) (paging.Listing[Listing], error) {
	if f.Channel != "" && !validChannel(f.Channel) {
		return paging.Listing[Listing]{}, channels.ErrNotFound
	}
	recs, total, next, err := listPage(ctx, s.Table, account, f, p)
	if err != nil {
		return paging.Listing[Listing]{}, err
	}
	if len(recs) == 0 && f.Channel != "" {
		if _, err := s.Channels.Get(ctx, account, f.Channel); err != nil {
			return paging.Listing[Listing]{}, err
		}
	}
	out := make([]Listing, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Listing)
	}
	return paging.Listing[Listing]{Items: out, Total: total, Next: next}, nil
}

// Put creates or updates one listing and returns it: the channel must be
// the account's (404), an explicit SKU a product of the catalog (404), the
// rules' warehouses the account's (422). Its quantity follows from the
// table's stream within seconds.
func (s Service) Put(ctx context.Context, account string, in Input) (Listing, error) {
	ch, err := s.Channels.Get(ctx, account, in.ChannelUUID)
	if err != nil {
		return Listing{}, err
	}
	if in.RulesSet {
		if err := s.Channels.CheckWarehouses(ctx, account, "inventory_rules.warehouses", in.Rules.Warehouses()); err != nil {
			return Listing{}, err
		}
	}
	if in.LinkSet && in.SKU != nil {
		ok, err := s.isProduct(ctx, account, *in.SKU)
		if err != nil {
			return Listing{}, err
		}
		if !ok {
			return Listing{}, errs.NotFound(catalog.NotFoundMessage)
		}
	}
	var r *record
	err = retry(ctx, func() error {
		if r, err = get(ctx, s.Table, account, in.ChannelUUID, in.ChannelSKU); err != nil {
			return err
		}
		if r == nil {
			if r, err = s.newRecord(ctx, account, ch, in); err != nil {
				return err
			}
		}
		apply(r, in)
		return save(ctx, s.Table, account, r)
	})
	if err != nil {
		return Listing{}, err
	}
	return r.Listing, nil
}

// newRecord is a new listing of the channel: linked by equal SKU when the
// input does not link it and a product has its channel SKU.
func (s Service) newRecord(ctx context.Context, account string, ch channels.Channel, in Input) (*record, error) {
	r := &record{Listing: Listing{ChannelUUID: ch.UUID, ChannelSKU: in.ChannelSKU, SyncStatus: StatusUnlinked}, ChannelType: ch.ChannelTypeDisplayName}
	if !in.LinkSet {
		ok, err := s.isProduct(ctx, account, in.ChannelSKU)
		if err != nil {
			return nil, err
		}
		if ok {
			r.SKU = &in.ChannelSKU
		}
	}
	return r, nil
}

// apply writes what the input sets onto r.
func apply(r *record, in Input) {
	if in.ListingRefSet {
		r.ListingRef = in.ListingRef
	}
	if in.LinkSet {
		r.SKU, r.Explicit = in.SKU, true
	}
	if in.RulesSet {
		r.InventoryRules = in.Rules
	}
	if in.ChannelQuantity != nil {
		r.ChannelQuantity = in.ChannelQuantity
	}
	// The merchant changed the listing: whatever the channel said of
	// keeping its quantity itself is asked again by the next push.
	r.ChannelOff = nil
	if r.Version == 0 { // never decided yet: what the stream will make of it
		r.SyncStatus = StatusUnlinked
		if r.linked() {
			r.SyncStatus = StatusPending
		}
	}
	r.UpdatedAt = now()
}

// isProduct reports whether the SKU is a product (or group) of the
// catalog: one BatchGetItem.
func (s Service) isProduct(ctx context.Context, account, sku string) (bool, error) {
	found, err := s.Catalog.Lookup(ctx, account, []string{sku})
	if err != nil {
		return false, fmt.Errorf("look up product %q: %w", sku, err)
	}
	_, ok := found[sku]
	return ok, nil
}

// Delete removes one listing; ErrNotFound when there is none.
func (s Service) Delete(ctx context.Context, account, channel, channelSKU string) error {
	if err := ParseKey(channel, channelSKU); err != nil {
		return err
	}
	if !validChannel(channel) {
		return ErrNotFound
	}
	found, err := remove(ctx, s.Table, account, channel, channelSKU)
	if err == nil && !found {
		return ErrNotFound
	}
	return err
}

// Links returns the explicit links among the channel's SKUs: the inventory
// SKU each is linked to, "" for one explicitly unlinked; SKUs without an
// explicit link are absent (they draw the product with their own SKU).
// One BatchGetItem per 100 SKUs; the orders domain's import reads it.
func (s Service) Links(ctx context.Context, account, channel string, channelSKUs []string) (map[string]string, error) {
	recs, err := getMany(ctx, s.Table, account, channel, channelSKUs)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(recs))
	for _, r := range recs {
		if r.Explicit {
			out[r.ChannelSKU] = ""
			if r.SKU != nil {
				out[r.ChannelSKU] = *r.SKU
			}
		}
	}
	return out, nil
}

// Report records a listing a connector says its channel has (creating it
// when new) with what the channel shows.
func (s Service) Report(ctx context.Context, account string, in Input) error {
	_, err := s.Put(ctx, account, in)
	return err
}

// Confirm applies a connector's result for a pushed version
// (push.Confirm): ok makes the listing synced, with the channel
// quantity reported (the pushed one when none is), an error makes it
// failed (retried from the stream), off makes it off with that reason
// until the merchant changes it (Put). A result for any other version than
// the listing's current one is push.ErrStale and changes nothing but the
// listing reference it brings: the channel's reference of the listing
// holds whatever version was pushed.
func (s Service) Confirm(ctx context.Context, account string, res Result) error {
	stale := false
	err := s.update(ctx, account, res.ChannelUUID, res.ChannelSKU, func(r *record) error {
		stale = false
		at := now()
		err := push.Confirm(r, push.Result{Version: res.Version, OK: res.OK, Error: res.Error}, "the channel refused the quantity")
		if errors.Is(err, push.ErrStale) && res.ListingRef != nil && !equal(r.ListingRef, res.ListingRef) {
			stale, r.ListingRef, r.UpdatedAt = true, res.ListingRef, at
			return nil
		} else if err != nil {
			return err
		}
		if res.ListingRef != nil {
			r.ListingRef = res.ListingRef
		}
		switch {
		case res.Off != nil:
			push.Next(r, StatusOff)
			r.ChannelOff, r.SyncError, r.Quantity, r.QuantityAt = res.Off, res.Off, nil, at
		case res.OK:
			r.SyncedAt, r.ChannelQuantity = &at, r.Quantity
		}
		if res.ChannelQuantity != nil {
			r.ChannelQuantity = res.ChannelQuantity
		}
		r.UpdatedAt = at
		return nil
	})
	if err == nil && stale {
		return push.ErrStale
	}
	return err
}

// equal reports whether two optional strings are the same.
func equal(a, b *string) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// Resend sends a failed version again (the retry queue's delayed message):
// unless the listing was confirmed, replaced or failed again meanwhile
// (push.ErrStale), it counts one more push, which the stream sends. A
// retry of attempt 0 ends the hold that started at its version (release):
// the stream sends the version current then.
func (s Service) Resend(ctx context.Context, account string, m Retry) error {
	return s.update(ctx, account, m.ChannelUUID, m.ChannelSKU, func(r *record) error {
		var err error
		if m.Attempt == 0 {
			err = release(r, m.Version, time.Now())
		} else {
			err = push.Resend(r, push.Retry{Version: m.Version, Attempt: m.Attempt})
		}
		if err != nil {
			return err
		}
		r.UpdatedAt = now()
		return nil
	})
}

// update reads the listing, changes it with change and saves it on the
// revision read, again when another write came between; ErrNotFound when
// there is none.
func (s Service) update(ctx context.Context, account, channel, channelSKU string, change func(*record) error) error {
	return retry(ctx, func() error {
		r, err := get(ctx, s.Table, account, channel, channelSKU)
		if err != nil {
			return err
		}
		if r == nil {
			return ErrNotFound
		}
		if err := change(r); err != nil {
			return err
		}
		return save(ctx, s.Table, account, r)
	})
}

// retry runs a read-modify-write of listings with store.Retry: again while
// it loses a race (store.ErrRaced), at most store.Attempts times.
func retry(ctx context.Context, attempt func() error) error {
	return store.Retry(ctx, store.Attempts, store.Raced, attempt)
}
