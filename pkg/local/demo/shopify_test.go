package demo_test

import (
	"context"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/demo"
	sbxshopify "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestConnectShopify: a seeded account's Shopify channel connects to the sandbox through
// the connect path, with three listings whose refs are the shop's inventory items and
// orders in the shop for the poll.
func TestConnectShopify(t *testing.T) {
	connectors.Register(shopify.Connector)
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	ctx := context.Background()
	if err := demo.Seed(ctx, env.Deps, acct.ID, demo.Sizes{Warehouses: 1, Products: 6, Orders: 0}, nil); err != nil {
		t.Fatal(err)
	}
	sb, err := sbxshopify.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	ch, err := demo.ConnectShopify(ctx, env.Deps, acct.ID, sb)
	if err != nil {
		t.Fatal(err)
	}
	list, err := env.Deps.Listings().List(ctx, acct.ID, listings.Filter{Channel: ch.UUID}, paging.Page{Number: 1, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 3 {
		t.Fatalf("%d listings, want 3", len(list.Items))
	}
	for _, l := range list.Items {
		if l.ListingRef == nil || *l.ListingRef == "" {
			t.Errorf("listing %s has no inventory item", l.ChannelSKU)
		}
	}
	if ch.Connector != "shopify" {
		t.Errorf("channel %+v, want connector shopify", ch)
	}
}
