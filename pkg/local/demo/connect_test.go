package demo_test

import (
	"context"
	"github.com/multisell/multisell/pkg/consent"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
	_ "github.com/multisell/multisell/pkg/local/sandbox/builtin"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
)

// sandboxCase is what the demo's channel of a sandbox gets, by its connector's name.
type sandboxCase struct {
	listings int
	// off is how many of them the marketplace keeps the quantity of (Amazon's FBA): off.
	off    int
	orders int
	// refPrefix starts every listing's listing_ref once its quantity was pushed ("": not checked).
	refPrefix string
}

var sandboxCases = map[string]sandboxCase{
	"generic": {2, 0, 0, "GI-"},
	"amazon":  {3, 1, 2, ""},
	"shopify": {3, 0, 2, "gid://shopify/InventoryItem/"},
	"ebay":    {3, 0, 3, ""},
	"walmart": {3, 0, 3, ""},
	"etsy":    {3, 0, 2, ""},
}

// TestConnectSandboxes: after Seed, the demo connects a channel of the account to each
// registered sandbox kind (the generic marketplace and every marketplace's) through the connect path (the connector verifies the credentials there), with its
// listings, which the connector runtime pushes until each is synced (or off, when the
// marketplace keeps its quantity: the demo's Amazon FBA listing), and its orders, which a
// poll of the channel imports through the inbox; an order placed for the channel as
// `multisell sandbox order` does is the sandbox seller's, and the next poll imports it.
func TestConnectSandboxes(t *testing.T) {
	t.Parallel()
	kinds := demo.Kinds()
	if got, want := len(kinds), len(sandboxCases); got != want {
		t.Fatalf("%d sandbox kinds registered, want %d", got, want)
	}
	env := testenv.Get(t)
	for _, k := range kinds {
		name := k.Connector.Spec().Name
		tc := sandboxCases[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			connectors.Register(k.Connector)
			acct := env.NewAccount(t, testenv.AccountOptions{})
			ctx := context.Background()
			if err := demo.Seed(ctx, env.Deps, acct.ID, demo.Sizes{Warehouses: 1, Products: 10}, nil); err != nil {
				t.Fatal(err)
			}
			sb, err := k.Open(filepath.Join(t.TempDir(), name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = sb.Close() })
			url := sb.URL
			if sb.Consent != nil { // a type connected by consent needs its app on the stack
				if err := env.Deps.LocalApps.Set(name, sb.Consent(consent.CallbackURL(env.URL, name)).App); err != nil {
					t.Fatal(err)
				}
			}
			ch, err := sb.Connect(ctx, env.Deps, acct.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := ch.Connector, name; got != want {
				t.Errorf("connector %q, want %q", got, want)
			}
			c := env.Client(t, acct)
			var ls []listings.Listing
			testenv.WaitFor(t, func() bool {
				ls = nil
				c.Do(http.MethodGet, "/listings?channel_uuid="+ch.UUID, nil).JSON(t, &ls)
				off := 0
				for _, l := range ls {
					switch {
					case l.SyncStatus == listings.StatusOff && l.SyncError != nil:
						off++
					case l.SyncStatus != listings.StatusSynced:
						return false
					}
				}
				return len(ls) == tc.listings && off == tc.off
			}, "the channel's listings synced (or off, kept by the marketplace)")
			for _, l := range ls {
				if l.SyncStatus == listings.StatusOff {
					continue
				}
				if tc.refPrefix != "" && (l.ListingRef == nil || !strings.HasPrefix(*l.ListingRef, tc.refPrefix)) {
					t.Errorf("listing %s: listing_ref %v, want %s...", l.ChannelSKU, l.ListingRef, tc.refPrefix)
				}
			}

			poll := func() int {
				t.Helper()
				res, err := env.Deps.Connectors().PollChannel(ctx, connectors.ChannelRef{Account: acct.ID, UUID: ch.UUID})
				if err != nil {
					t.Fatal(err)
				}
				return res.Orders
			}
			if got := poll(); got != tc.orders {
				t.Errorf("the first poll read %d orders, want %d", got, tc.orders)
			}
			if _, err := sandbox.PlaceOrder(ctx, url, sandbox.OrderRequest{ChannelUUID: ch.UUID}); err != nil {
				t.Fatalf("an order for the channel: %v", err)
			}
			poll()
			testenv.WaitFor(t, func() bool {
				var os []orders.Order
				c.Do(http.MethodGet, "/orders?limit=100", nil).JSON(t, &os)
				n := 0
				for _, o := range os {
					if o.ChannelUUID == ch.UUID {
						n++
					}
				}
				return n == tc.orders+1
			}, "the channel's orders imported")
		})
	}
}
