package demo

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	ebaysandbox "github.com/multisell/multisell/pkg/local/sandbox/ebay"
)

// EbayChannel is the name of the demo channel the eBay sandbox serves.
const EbayChannel = "eBay (sandbox)"

// ebayListings and ebayOrders are how many products the eBay channel lists and how many
// orders its sandbox seller has for the first poll to import.
const (
	ebayListings = 3
	ebayOrders   = 3
)

// ConnectEbay connects the account to the eBay sandbox e as the eBay connector reaches eBay:
// it opens a seller account in e, connects the channel EbayChannel (type eBay) to it through
// the channels service's connect path (the connector verifies the credentials against the
// sandbox), records that the seller is that channel (so `multisell sandbox order` finds
// it), lists the account's first simple products on it by equal SKU in both, and places a
// few orders there for the scheduled poll to import. Run it after Seed with ebay.Connector
// registered.
func ConnectEbay(ctx context.Context, d *app.Deps, account string, e *ebaysandbox.Sandbox) (channels.Channel, error) {
	clientID := "demo-" + account
	secret, refresh := rand.Text(), rand.Text()
	e.AddSeller(clientID, secret, refresh, "EBAY_US")
	ch, err := connect(ctx, d, account, EbayChannel, ebay.Connector.Spec().Name,
		map[string]string{"client_id": clientID, "client_secret": secret, "refresh_token": refresh, "marketplace_id": "EBAY_US"},
		channels.Endpoints{API: e.URL, Auth: e.URL + ebaysandbox.TokenPath})
	if err != nil {
		return channels.Channel{}, err
	}
	e.BindChannel(clientID, ch.UUID)
	skus, err := listProducts(ctx, d, account, ch, ebayListings, func(sku string, _ int) string {
		e.AddListing(clientID, sku, 0)
		return ""
	})
	if err != nil {
		return channels.Channel{}, err
	}
	now := time.Now()
	for i := range min(ebayOrders, len(skus)) {
		at := now.Add(time.Duration(i-ebayOrders) * time.Minute)
		e.PutOrder(clientID, ebaysandbox.NewOrder(fmt.Sprintf("20-%05d-%05d", now.Unix()%100000, i+1), skus[i], int64(i+1), at))
	}
	return ch, nil
}
