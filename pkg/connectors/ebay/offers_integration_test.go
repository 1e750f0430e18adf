package ebay_test

import (
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
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
		rep := f.runtime(30*time.Second).Push(c, []connectors.Message{f.quantityRef("SKU-O", ref, want, int64(i+1))})
		for _, o := range rep.Outcomes {
			if o.Err != nil || o.Drop != "" {
				t.Fatalf("push %d: outcome %+v", want, o)
			}
		}
		res := f.inbox.TakeResults()
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
