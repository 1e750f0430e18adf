package ebay

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// demoChannel is the name of the demo channel the eBay sandbox serves.
const demoChannel = "eBay (sandbox)"

// ebayListings and ebayOrders are how many products the eBay channel lists and how many
// orders its sandbox seller has for the first poll to import.
const (
	ebayListings = 3
	ebayOrders   = 3
)

func init() {
	demo.Register(demo.Kind{Connector: ebay.Connector, Title: "eBay Sell APIs",
		Open: demo.Opener(Open, func(s *Sandbox) *sandbox.Server { return s.Server }, connectDemo, consentDemo)})
}

// connectDemo connects the account to the eBay sandbox e as the eBay connector reaches eBay:
// it opens a seller account in e, connects the channel demoChannel (type eBay) to it through
// the channels service's connect path (the connector verifies the credentials against the
// sandbox), records that the seller is that channel (so `multisell sandbox order` finds
// it), lists the account's first simple products on it by equal SKU in both, and places a
// few orders there for the scheduled poll to import. Run it after Seed with ebay.Connector
// registered.
func connectDemo(ctx context.Context, d *app.Deps, account string, e *Sandbox) (channels.Channel, error) {
	clientID := "demo-" + account
	secret, refresh := rand.Text(), rand.Text()
	e.AddSeller(clientID, secret, refresh, "EBAY_US")
	ch, err := demo.Connect(ctx, d, account, demoChannel, ebay.Connector.Spec().Name,
		map[string]string{"client_id": clientID, "client_secret": secret, "refresh_token": refresh, "marketplace_id": "EBAY_US"},
		channels.Endpoints{API: e.URL, Auth: e.URL + TokenPath})
	if err != nil {
		return channels.Channel{}, err
	}
	e.BindChannel(clientID, ch.UUID)
	skus, err := demo.ListProducts(ctx, d, account, ch, ebayListings, func(sku string, _ int) string {
		e.AddListing(clientID, sku, 0)
		return ""
	})
	if err != nil {
		return channels.Channel{}, err
	}
	now := time.Now()
	for i := range min(ebayOrders, len(skus)) {
		at := now.Add(time.Duration(i-ebayOrders) * time.Minute)
		e.PutOrder(clientID, NewOrder(fmt.Sprintf("20-%05d-%05d", now.Unix()%100000, i+1), skus[i], int64(i+1), at))
	}
	return ch, nil
}
