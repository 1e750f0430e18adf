package ebay_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestOfferQuantity: a listing whose offer holds 2 shows 7 after a push of 7, and 4 after a
// push of 4. Each push sets the item's quantity and its offer's availableQuantity together;
// the offer is found once (getOffers) and kept as the listing's listing_ref.
func TestOfferQuantity(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	f.sb.AddListing(seller, "SKU-O", 5)
	f.sb.SetOfferQuantity(seller, "SKU-O", 2)
	if got, _ := f.sb.Quantity(seller, "SKU-O"); got != 2 {
		t.Fatalf("before: shows %d, want 2 (the offer's)", got)
	}
	var ref *string
	for i, want := range []int64{7, 4} {
		rep := f.Runtime(30*time.Second).Push(c, []connectors.Message{f.QuantityRef("SKU-O", ref, want, int64(i+1))})
		connectorstest.WantOutcomes(t, rep, false)
		res := f.Inbox.TakeResults()
		if len(res) != 1 || res[0]["ok"] != true {
			t.Fatalf("push %d: results %v, want one ok", want, res)
		}
		if i == 0 {
			r, _ := res[0]["listing_ref"].(string)
			if !strings.HasPrefix(r, "offer:") {
				t.Fatalf("first push: listing_ref %q, want the offer found", r)
			}
			ref = &r
		}
		if got, _ := f.sb.Quantity(seller, "SKU-O"); got != want {
			t.Errorf("after a push of %d: shows %d", want, got)
		}
	}
	if got, want := f.sb.Calls(sbx.OpGetOffers), 1; got != want {
		t.Errorf("getOffers calls: got %d, want %d (the offer found once)", got, want)
	}
}

// TestTradingListings: listings made outside the Inventory API (no offer: getOffers answers
// 25713) are found once among the seller's active listings (GetMyeBaySelling), keep their
// ItemID as listing_ref, and are set through ReviseInventoryStatus, four a call; a listing
// eBay refuses (ended) fails alone, its call mates set.
func TestTradingListings(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	ids := map[string]string{}
	for i := range 5 {
		sku := fmt.Sprintf("SKU-T%d", i)
		ids[sku] = f.sb.AddTradingListing(seller, sku, 1)
	}
	f.sb.AddListing(seller, "SKU-INV", 1)
	push := func(version int64, refs map[string]string) map[string]map[string]any {
		var msgs []connectors.Message
		for sku := range ids {
			var ref *string
			if r, ok := refs[sku]; ok {
				ref = &r
			}
			msgs = append(msgs, f.QuantityRef(sku, ref, 10+version, version))
		}
		msgs = append(msgs, f.Quantity("SKU-INV", 10+version, version))
		f.Runtime(30*time.Second).Push(c, msgs)
		out := map[string]map[string]any{}
		for _, r := range f.Inbox.TakeResults() {
			out[r["channel_sku"].(string)] = r
		}
		return out
	}
	res := push(1, nil)
	refs := map[string]string{}
	for sku, id := range ids {
		r := res[sku]
		if r["ok"] != true || r["listing_ref"] != id {
			t.Errorf("%s: %v, want ok with listing_ref %s", sku, r, id)
		}
		refs[sku] = id
		if q, _ := f.sb.Quantity(seller, sku); q != 11 {
			t.Errorf("%s shows %d, want 11", sku, q)
		}
	}
	if r := res["SKU-INV"]; r["ok"] != true {
		t.Errorf("the Inventory API listing: %v, want ok", r)
	}
	if got, want := fmt.Sprint(f.tradingCalls("ReviseInventoryStatus")), "[4 1]"; got != want {
		t.Errorf("ReviseInventoryStatus calls (InventoryStatus each): got %s, want %s", got, want)
	}
	if got, want := len(f.tradingCalls("GetMyeBaySelling")), 1; got != want {
		t.Errorf("GetMyeBaySelling calls: got %d, want %d", got, want)
	}
	f.sb.EndListing(seller, ids["SKU-T2"])
	res = push(2, refs)
	for sku := range ids {
		r := res[sku]
		if sku == "SKU-T2" {
			if r["ok"] != false || !strings.Contains(fmt.Sprint(r["error"]), "291") {
				t.Errorf("the ended listing: %v, want failed with eBay's error 291", r)
			}
			continue
		}
		if r["ok"] != true {
			t.Errorf("%s beside the ended listing: %v, want ok", sku, r)
		}
		if q, _ := f.sb.Quantity(seller, sku); q != 12 {
			t.Errorf("%s shows %d, want 12", sku, q)
		}
	}
	if got, want := len(f.tradingCalls("GetMyeBaySelling")), 1; got != want {
		t.Errorf("GetMyeBaySelling calls after pushes with refs: got %d, want %d", got, want)
	}
}

// TestMigrateListings: listings made outside the Inventory API, migrated when the merchant
// asks, become Inventory API offers (their new listing_ref), which a push then sets through
// bulkUpdatePriceQuantity; a listing eBay cannot migrate (ended) fails alone.
func TestMigrateListings(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	a, b := f.sb.AddTradingListing(seller, "SKU-M1", 3), f.sb.AddTradingListing(seller, "SKU-M2", 4)
	gone := f.sb.AddTradingListing(seller, "SKU-M3", 5)
	f.sb.EndListing(seller, gone)
	s, err := f.Runtime(30*time.Second).Session(c, f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ebay.MigrateListings(c, s, []string{a, b, gone})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || !got[0].OK || !got[1].OK || got[2].OK || !strings.Contains(got[2].Error, "25718") ||
		got[0].SKU != "SKU-M1" || !strings.HasPrefix(got[0].ListingRef, "offer:") {
		t.Fatalf("migrations: %+v, want the first two migrated with their offers, the ended one failed with 25718", got)
	}
	ref := got[0].ListingRef
	f.Runtime(30*time.Second).Push(c, []connectors.Message{f.QuantityRef("SKU-M1", &ref, 9, 1)})
	if res := f.Inbox.TakeResults(); len(res) != 1 || res[0]["ok"] != true {
		t.Fatalf("push after the migration: %v", res)
	}
	if q, _ := f.sb.Quantity(seller, "SKU-M1"); q != 9 {
		t.Errorf("the migrated listing shows %d, want 9", q)
	}
	if n := len(f.tradingCalls("ReviseInventoryStatus")); n != 0 {
		t.Errorf("ReviseInventoryStatus calls for a migrated listing: %d, want none", n)
	}
}
