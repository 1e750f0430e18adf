package demo

import (
	"context"
	"crypto/rand"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// SandboxChannel is the name of the demo channel the generic sandbox serves.
const SandboxChannel = "Generic Marketplace"

func init() {
	Register(Kind{Connector: sandbox.GenericConnector, Title: "generic marketplace",
		Open: Opener(sandbox.OpenGeneric, func(g *sandbox.Generic) *sandbox.Server { return g.Server }, ConnectSandbox)})
}

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
	ch, err := Connect(ctx, d, account, SandboxChannel, sandbox.GenericConnector.Spec().Name,
		map[string]string{"client_id": clientID, "client_secret": secret, "refresh_token": refresh},
		channels.Endpoints{API: g.URL, Auth: g.URL + sandbox.TokenPath})
	if err != nil {
		return channels.Channel{}, err
	}
	g.BindChannel(clientID, ch.UUID)
	if _, err := ListProducts(ctx, d, account, ch, sandboxListings, func(sku string, _ int) string { return "GI-" + sku }); err != nil {
		return channels.Channel{}, err
	}
	return ch, nil
}
