package channels_test

import (
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// TestChannelKeptListing drives what a connector answers beside a quantity through the wired
// stack, on a channel connected to the generic sandbox: the marketplace's own id of an item
// becomes the listing's listing_ref; an item the marketplace keeps the quantity of (as Amazon
// does for the listings it fulfils) makes its listing off with the marketplace's reason, and
// later stock changes push nothing for it, while the other listing keeps syncing; PUT
// /listings of it tries again, and once the marketplace takes its quantity it syncs.
func TestChannelKeptListing(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	sb := marketplace(t)
	seller, ch := connectSeller(t, f, sb)
	const reason = "the marketplace stocks and ships this item: it keeps its quantity itself"
	sb.Manage(seller, "KEPT", reason)

	wh := f.Warehouse("A")
	for _, sku := range []string{"KEPT", "OWN"} {
		f.Product(sku)
		f.Stock(sku, wh, 5)
		if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch, "channel_sku": sku}}); r.Status != http.StatusOK {
			t.Fatalf("list %s: %d %s", sku, r.Status, r)
		}
	}
	byChannelSKU := func() map[string]listings.Listing {
		var ls []listings.Listing
		f.C.Do(http.MethodGet, "/listings?channel_uuid="+ch, nil).JSON(t, &ls)
		out := map[string]listings.Listing{}
		for _, l := range ls {
			out[l.ChannelSKU] = l
		}
		return out
	}
	settled := func(ownQuantity int64) func() bool {
		return func() bool {
			ls := byChannelSKU()
			kept, own := ls["KEPT"], ls["OWN"]
			q, _ := sb.Quantity(seller, "OWN")
			return kept.SyncStatus == listings.StatusOff && own.SyncStatus == listings.StatusSynced && q == ownQuantity
		}
	}
	testenv.WaitFor(t, settled(5), "KEPT off, OWN synced at 5")
	ls := byChannelSKU()
	tests := []struct {
		name      string
		got, want any
	}{
		{"KEPT sync_error", deref(ls["KEPT"].SyncError), reason},
		{"KEPT quantity", ls["KEPT"].Quantity == nil, true},
		{"KEPT listing_ref", deref(ls["KEPT"].ListingRef), "GI-KEPT"},
		{"OWN listing_ref", deref(ls["OWN"].ListingRef), "GI-OWN"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}

	// Stock changes push OWN only: KEPT stays off with its reason and is never set.
	f.Adjust("KEPT", wh, 9)
	f.Adjust("OWN", wh, 8)
	testenv.WaitFor(t, settled(8), "OWN synced at 8")
	f.Env.Drain(t)
	if _, ok := sb.Quantity(seller, "KEPT"); ok {
		t.Errorf("the marketplace holds a quantity of KEPT: the kept listing was pushed")
	}
	if got := byChannelSKU()["KEPT"]; got.SyncStatus != listings.StatusOff || deref(got.SyncError) != reason {
		t.Errorf("KEPT after stock changes: %s %v, want off with the reason", got.SyncStatus, deref(got.SyncError))
	}

	// The merchant sells it themselves again: PUT /listings tries again, and it syncs.
	sb.Manage(seller, "KEPT", "")
	if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch, "channel_sku": "KEPT"}}); r.Status != http.StatusOK {
		t.Fatalf("put KEPT again: %d %s", r.Status, r)
	}
	testenv.WaitFor(t, func() bool {
		q, ok := sb.Quantity(seller, "KEPT")
		return ok && q == 9 && byChannelSKU()["KEPT"].SyncStatus == listings.StatusSynced
	}, "KEPT synced at 9 after PUT /listings")
}

// deref is the string p points at, "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// TestNewCredentialsNewToken: after PATCH with another seller's credentials, the next push
// reaches that seller's shop, not the one whose access token was cached from the old
// credentials (the cached token is known stale by the credentials it was got with).
func TestNewCredentialsNewToken(t *testing.T) {
	t.Parallel()
	f := orderstest.New(t)
	sb := marketplace(t)
	first, ch := connectSeller(t, f, sb)
	wh := f.Warehouse("A")
	f.Product("MOVE")
	f.Stock("MOVE", wh, 3)
	if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch, "channel_sku": "MOVE"}}); r.Status != http.StatusOK {
		t.Fatalf("list: %d %s", r.Status, r)
	}
	testenv.WaitFor(t, func() bool { q, ok := sb.Quantity(first, "MOVE"); return ok && q == 3 }, "MOVE at 3 in the first shop")

	second := "second-" + f.Acct.ID
	sb.AddSeller(second, clientSecret, refreshToken)
	r := f.C.Do(http.MethodPatch, "/channels/"+ch, map[string]any{"channel": map[string]any{"credentials": creds(map[string]any{"client_id": second})}})
	if r.Status != http.StatusOK {
		t.Fatalf("patch credentials: %d %s", r.Status, r)
	}
	f.Adjust("MOVE", wh, 6)
	testenv.WaitFor(t, func() bool { q, ok := sb.Quantity(second, "MOVE"); return ok && q == 6 }, "MOVE at 6 in the second shop")
	if q, _ := sb.Quantity(first, "MOVE"); q != 3 {
		t.Errorf("the first shop's MOVE: got %d, want 3 (the new credentials' push went to the old shop)", q)
	}
}
