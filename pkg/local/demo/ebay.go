package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/listings"
	ebaysandbox "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/paging"
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
	creds, err := json.Marshal(map[string]string{"client_id": clientID, "client_secret": secret,
		"refresh_token": refresh, "marketplace_id": "EBAY_US"})
	if err != nil {
		return channels.Channel{}, err
	}
	ch, err := d.Channels().Connect(ctx, account, channels.ConnectInput{
		Name: EbayChannel, Type: ebay.Connector.Spec().Name, Credentials: creds,
		Endpoints: channels.Endpoints{API: e.URL, Auth: e.URL + ebaysandbox.TokenPath},
	})
	if err != nil {
		return channels.Channel{}, fmt.Errorf("connect %s to the sandbox: %w", EbayChannel, err)
	}
	e.BindChannel(clientID, ch.UUID)
	svc := d.Listings()
	products, err := svc.Catalog.List(ctx, account, catalog.Filter{}, paging.Page{Number: 1, Limit: paging.MaxLimit})
	if err != nil {
		return channels.Channel{}, err
	}
	var skus []string
	for _, p := range products.Items {
		if len(skus) == ebayListings {
			break
		}
		if len(p.Variations) > 0 {
			continue
		}
		e.AddListing(clientID, p.SKU, 0)
		if _, err := svc.Put(ctx, account, listings.Input{ChannelUUID: ch.UUID, ChannelSKU: p.SKU}); err != nil {
			return channels.Channel{}, fmt.Errorf("listing %s on %s: %w", p.SKU, EbayChannel, err)
		}
		skus = append(skus, p.SKU)
	}
	now := time.Now()
	for i := range min(ebayOrders, len(skus)) {
		at := now.Add(time.Duration(i-ebayOrders) * time.Minute)
		e.PutOrder(clientID, ebaysandbox.NewOrder(fmt.Sprintf("20-%05d-%05d", now.Unix()%100000, i+1), skus[i], int64(i+1), at))
	}
	return ch, nil
}
