package listings_test

import (
	"context"
	"errors"
	"testing"

	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestStaleResultKeepsRef: a connector's result for a version the listing has moved past is
// stale and changes nothing of the push, but the channel's reference of the listing it
// brings is kept (the reference holds whatever version was pushed).
func TestStaleResultKeepsRef(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.waitSynced(wanted(w.available()))
	w.Adjust("P", w.A, 3) // a new version of both listings
	testenv.WaitFor(t, func() bool {
		ls := w.listings("channel_uuid=" + w.Amazon)
		return len(ls) == 1 && ls[0].Quantity != nil && *ls[0].Quantity == w.available()
	}, "the listing's new version decided")
	ref := "gid://shopify/InventoryItem/42"
	err := w.Env.Deps.Listings().Confirm(context.Background(), w.Acct.ID,
		listings.Result{ChannelUUID: w.Amazon, ChannelSKU: "P", Version: 1, OK: true, ListingRef: &ref})
	if !errors.Is(err, push.ErrStale) {
		t.Fatalf("Confirm of version 1 = %v, want push.ErrStale", err)
	}
	for _, l := range w.listings("channel_uuid=" + w.Amazon) {
		if l.ListingRef == nil || *l.ListingRef != ref {
			t.Errorf("listing_ref after a stale result: got %v, want %s", l.ListingRef, ref)
		}
	}
	w.waitSynced(wanted(w.available()))
}
