package amazon_test

import (
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors/amazon"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestRestrictedData: with the restricted role, the poll reads the orders with a Restricted
// Data Token (one for three polls: it is cached for its life) and imports the ship-to name,
// street lines, phone and the buyer's e-mail. Without it (Amazon refuses the token), the
// orders import without them, the poll succeeds, and the connection is told why once, not
// at every poll; granted again, the next token ends the notice.
func TestRestrictedData(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		lacks   bool
		want    map[string]any
		notices []int // per poll
	}{
		{"with the role", false, map[string]any{"shipping_contact_name": "Jane Buyer", "shipping_address_1": "1 Main St",
			"shipping_address_2": "Apt 2", "shipping_phone_number": "+1 206-555-0100", "shipping_email": "jane@marketplace.amazon.com",
			"shipping_city": "Seattle"}, []int{0, 0, 0}},
		{"without the role", true, map[string]any{"shipping_contact_name": nil, "shipping_address_1": nil, "shipping_address_2": nil,
			"shipping_phone_number": nil, "shipping_email": nil, "shipping_city": "Seattle"}, []int{1, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, &amazon.Connector{}, fast)
			f.sb.LackRole(sellerID, amazonsb.RoleRestricted, tt.lacks)
			c := ctx(t, time.Minute)
			for i, want := range tt.notices {
				id := "116-0000001-000000" + string(rune('1'+i))
				f.order(id, "Unshipped", time.Now().Add(-time.Hour+time.Duration(i)*time.Second), "SKU-A")
				res, err := f.Runtime(0).Poll(c, f.Ch)
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Notices) != want || want > 0 && !strings.Contains(res.Notices[0], "Restricted Data Token") {
					t.Errorf("poll %d: notices %q, want %d naming the Restricted Data Token", i+1, res.Notices, want)
				}
				docs := f.Inbox.TakeOrders()[id]
				if len(docs) != 1 {
					t.Fatalf("poll %d: order %s sent %d times, want once", i+1, id, len(docs))
				}
				for k, v := range tt.want {
					if docs[0][k] != v {
						t.Errorf("poll %d: %s = %v, want %v", i+1, k, docs[0][k], v)
					}
				}
			}
			if got, want := f.sb.Calls(amazon.OpCreateRestrictedDataToken), map[bool]int{false: 1, true: 3}[tt.lacks]; got != want {
				t.Errorf("%d createRestrictedDataToken for 3 polls, want %d", got, want)
			}
			if !tt.lacks {
				return
			}
			// Granted again: the next poll's token ends the notice; refused again, it is told again.
			f.sb.LackRole(sellerID, amazonsb.RoleRestricted, false)
			if res, err := f.Runtime(0).Poll(c, f.Ch); err != nil || len(res.Notices) != 0 {
				t.Fatalf("poll with the role granted: %v, %q", err, res.Notices)
			}
		})
	}
}

// TestListingRoleMissing: without the Product Listing role, a push of quantities is answered
// failed with Amazon's message, one patch asked for the whole batch, the channel stays
// connected (however many pushes) and its orders still import; three refusals of the
// refresh token still disconnect it.
func TestListingRoleMissing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &amazon.Connector{}, fast)
	f.sb.LackRole(sellerID, amazonsb.RoleListing, true)
	c := ctx(t, time.Minute)
	msgs := f.listings(3)
	for range 4 {
		rep := f.Runtime(0).Push(c, msgs)
		connectorstest.WantOutcomes(t, rep, false)
		if len(rep.Disconnected) != 0 {
			t.Fatalf("a push without the listing role disconnected the channel: %v", rep.Disconnected[0])
		}
		for _, r := range f.Inbox.TakeResults() {
			if r["ok"] != false || !strings.Contains(r["error"].(string), "Access to requested resource is denied") {
				t.Errorf("result %v, want failed with Amazon's message", r)
			}
		}
	}
	if got := f.sb.Calls(amazon.OpPatchListingsItem); got != 4 {
		t.Errorf("%d patches for 4 pushes of 3 listings, want 4 (one a batch)", got)
	}
	f.order("117-0000001-0000001", "Unshipped", time.Now().Add(-time.Hour), "SKU-A")
	if _, err := f.Runtime(0).Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	if got := f.Inbox.TakeOrders(); len(got["117-0000001-0000001"]) != 1 {
		t.Errorf("orders after the refused pushes: %v, want the order imported", got)
	}
	f.refusedThrice(t, c)
}
