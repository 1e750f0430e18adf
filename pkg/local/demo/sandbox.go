package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/paging"
)

// SandboxChannel is the name of the demo channel the generic sandbox serves.
const SandboxChannel = "Generic Marketplace"

// sandboxListings is how many products the sandbox channel lists.
const sandboxListings = 2

// ConnectSandbox connects the account to the generic sandbox g as multisell's connectors
// reach a marketplace: it opens a shop for the account in g, connects the channel
// SandboxChannel to it through the channels service's connect path (the sandbox verifies
// the credentials), records that the shop is that channel (so `multisell sandbox order`
// finds it), and lists the account's first products on it by equal SKU, so that their
// stock reaches the sandbox and the scheduled poll imports its orders. Run it after Seed
// (the demo's orders and shipments stay on the other channels) with sandbox.GenericConnector
// registered.
func ConnectSandbox(ctx context.Context, d *app.Deps, account string, g *sandbox.Generic) (channels.Channel, error) {
	clientID := "demo-" + account
	secret, refresh := rand.Text(), rand.Text()
	g.AddSeller(clientID, secret, refresh)
	creds, err := json.Marshal(map[string]string{"client_id": clientID, "client_secret": secret, "refresh_token": refresh})
	if err != nil {
		return channels.Channel{}, err
	}
	ch, err := d.Channels().Connect(ctx, account, channels.ConnectInput{
		Name: SandboxChannel, Type: sandbox.GenericConnector.Spec().Name, Credentials: creds,
		Endpoints: channels.Endpoints{API: g.URL, Auth: g.URL + "/oauth/token"},
	})
	if err != nil {
		return channels.Channel{}, fmt.Errorf("connect %s to the sandbox: %w", SandboxChannel, err)
	}
	g.BindChannel(clientID, ch.UUID)
	svc := d.Listings()
	products, err := svc.Catalog.List(ctx, account, catalog.Filter{}, paging.Page{Number: 1, Limit: paging.MaxLimit})
	if err != nil {
		return channels.Channel{}, err
	}
	listed := 0
	for _, p := range products.Items {
		if listed == sandboxListings {
			break
		}
		if len(p.Variations) > 0 {
			continue
		}
		in := listings.Input{ChannelUUID: ch.UUID, ChannelSKU: p.SKU, ListingRefSet: true, ListingRef: ptr("GI-" + p.SKU)}
		if _, err := svc.Put(ctx, account, in); err != nil {
			return channels.Channel{}, fmt.Errorf("listing %s on %s: %w", p.SKU, SandboxChannel, err)
		}
		listed++
	}
	return ch, nil
}
