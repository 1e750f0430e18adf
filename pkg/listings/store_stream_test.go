package listings

import (
	"testing"

	"github.com/multisell/multisell/pkg/store"
)

// TestListingChangePaced: what a listing's write asks of the stream under
// the minimum interval between pushes: a version that went at once is
// sent, one held starts the hold's end (once), the release sends.
func TestListingChangePaced(t *testing.T) {
	t.Parallel()
	rec := func(version, held int64, status string) *record {
		sku := "S"
		return &record{Listing: Listing{ChannelUUID: "c", ChannelSKU: "A", SKU: &sku, Quantity: i64(3), SyncStatus: status}, Version: version, Held: held, Rev: version}
	}
	image := func(r *record) store.Image {
		if r == nil {
			return store.Image{}
		}
		it, err := item("acct", r)
		if err != nil {
			t.Fatal(err)
		}
		return store.ImageOf(it)
	}
	cases := []struct {
		name     string
		old, cur *record
		send     bool
		hold     bool
	}{
		{"a version that went at once is sent again (deduplicated)", rec(1, 0, StatusSynced), rec(2, 0, StatusPending), true, false},
		{"a held version starts the hold", rec(1, 0, StatusSynced), rec(2, 2, StatusPending), false, true},
		{"a version folded into the hold sends nothing", rec(2, 2, StatusPending), rec(3, 2, StatusPending), false, false},
		{"the release sends the version current then", rec(3, 2, StatusPending), rec(3, 0, StatusPending), true, false},
		{"a later hold starts again", rec(3, 0, StatusSynced), rec(4, 4, StatusPending), false, true},
		{"a hold ended by turning off sends nothing", rec(3, 2, StatusPending), rec(4, 0, StatusOff), false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.cur.SyncStatus == StatusOff {
				tc.cur.Quantity = nil
			}
			lc, _, err := decodeListingChange(store.Change{Kind: kind, Old: image(tc.old), New: image(tc.cur)})
			if err != nil {
				t.Fatal(err)
			}
			if lc.send != tc.send || lc.hold != tc.hold {
				t.Errorf("send %v hold %v, want send %v hold %v", lc.send, lc.hold, tc.send, tc.hold)
			}
		})
	}
}
