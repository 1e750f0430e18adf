package demo_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	ebaysandbox "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	sbxshopify "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/testenv"
)

// sandboxCase is one sandbox the demo connects a channel to: how to start it and connect,
// and what the channel gets.
type sandboxCase struct {
	name      string
	connector connectors.Connector
	// start starts the sandbox and returns its URL, a stop, and the demo's connect to it.
	start    func() (url string, stop func() error, connect func(context.Context, *app.Deps, string) (channels.Channel, error), err error)
	listings int
	// off is how many of them the marketplace keeps the quantity of (Amazon's FBA): off.
	off    int
	orders int
	// refPrefix starts every listing's listing_ref once its quantity was pushed ("": not checked).
	refPrefix string
}

var sandboxCases = []sandboxCase{
	{"generic", sandbox.GenericConnector, func() (string, func() error, func(context.Context, *app.Deps, string) (channels.Channel, error), error) {
		g, err := sandbox.NewGeneric()
		if err != nil {
			return "", nil, nil, err
		}
		return g.URL, g.Close, func(ctx context.Context, d *app.Deps, a string) (channels.Channel, error) {
			return demo.ConnectSandbox(ctx, d, a, g)
		}, nil
	}, 2, 0, 0, "GI-"},
	{"amazon", amazon.Default, func() (string, func() error, func(context.Context, *app.Deps, string) (channels.Channel, error), error) {
		a, err := amazonsb.New()
		if err != nil {
			return "", nil, nil, err
		}
		return a.URL, a.Close, func(ctx context.Context, d *app.Deps, acct string) (channels.Channel, error) {
			return demo.ConnectAmazon(ctx, d, acct, a)
		}, nil
	}, 3, 1, 2, ""},
	{"shopify", shopify.Connector, func() (string, func() error, func(context.Context, *app.Deps, string) (channels.Channel, error), error) {
		s, err := sbxshopify.New()
		if err != nil {
			return "", nil, nil, err
		}
		return s.URL, s.Close, func(ctx context.Context, d *app.Deps, a string) (channels.Channel, error) {
			return demo.ConnectShopify(ctx, d, a, s)
		}, nil
	}, 3, 0, 2, "gid://shopify/InventoryItem/"},
	{"ebay", ebay.Connector, func() (string, func() error, func(context.Context, *app.Deps, string) (channels.Channel, error), error) {
		e, err := ebaysandbox.New()
		if err != nil {
			return "", nil, nil, err
		}
		return e.URL, e.Close, func(ctx context.Context, d *app.Deps, a string) (channels.Channel, error) {
			return demo.ConnectEbay(ctx, d, a, e)
		}, nil
	}, 3, 0, 3, ""},
}

// TestConnectSandboxes: after Seed, the demo connects a channel of the account to each
// sandbox through the connect path (the connector verifies the credentials there), with its
// listings, which the connector runtime pushes until each is synced (or off, when the
// marketplace keeps its quantity: the demo's Amazon FBA listing), and its orders, which a
// poll of the channel imports through the inbox; an order placed for the channel as
// `multisell sandbox order` does is the sandbox seller's, and the next poll imports it.
func TestConnectSandboxes(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	for _, tc := range sandboxCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			connectors.Register(tc.connector)
			acct := env.NewAccount(t, testenv.AccountOptions{})
			ctx := context.Background()
			if err := demo.Seed(ctx, env.Deps, acct.ID, demo.Sizes{Warehouses: 1, Products: 10}, nil); err != nil {
				t.Fatal(err)
			}
			url, stop, connect, err := tc.start()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = stop() })
			ch, err := connect(ctx, env.Deps, acct.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := ch.Connector, tc.connector.Spec().Name; got != want {
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
