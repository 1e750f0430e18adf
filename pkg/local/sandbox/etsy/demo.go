package etsy

import (
	"context"
	"crypto/rand"
	"hash/crc32"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// demoChannel is the name of the demo channel the Etsy sandbox serves.
const demoChannel = "Etsy (sandbox)"

// How many products the Etsy channel lists and how many receipts its shop has for the first
// poll to import.
const (
	etsyListings = 3
	etsyReceipts = 2
)

func init() {
	demo.Register(demo.Kind{Connector: etsy.Connector, Title: "Etsy Open API v3",
		Open: demo.Opener(Open, func(s *Sandbox) *sandbox.Server { return s.Server }, connectDemo, consentDemo)})
}

// connectDemo connects the account to the Etsy sandbox e: it opens a shop of the account's
// (its app's keystring and shared secret, its owner's refresh token), connects the channel
// demoChannel (type Etsy) to it with those credentials through the channels service's
// connect path (the connector verifies them against the sandbox), binds the shop to the
// channel (so `multisell sandbox order` finds it), lists the account's first simple products
// there by equal SKU (each its own listing, its id the listing_ref), and places receipts for
// the scheduled poll. Connecting by consent replaces the credentials once the consent flow
// is on the stack (docs/connectors.md, "Etsy").
func connectDemo(ctx context.Context, d *app.Deps, account string, e *Sandbox) (channels.Channel, error) {
	shopID := int64(crc32.ChecksumIEEE([]byte(account))%900_000_000) + 100_000_000
	clientID, secret, refresh := "demo"+strconv.FormatInt(shopID, 10), rand.Text(), strconv.FormatInt(shopID, 10)+"."+rand.Text()
	e.AddShop(shopID, shopID, clientID, secret, refresh)
	ch, err := demo.Connect(ctx, d, account, demoChannel, etsy.Connector.Spec().Name,
		map[string]string{"client_id": clientID, "client_secret": secret, "refresh_token": refresh, "shop_id": strconv.FormatInt(shopID, 10)},
		channels.Endpoints{API: e.URL, Auth: e.URL + TokenPath})
	if err != nil {
		return channels.Channel{}, err
	}
	e.BindChannel(strconv.FormatInt(shopID, 10), ch.UUID)
	skus, err := demo.ListProducts(ctx, d, account, ch, etsyListings, func(sku string, _ int) string {
		return strconv.FormatInt(e.AddListing(shopID, sku, 0), 10)
	})
	if err != nil {
		return channels.Channel{}, err
	}
	now := time.Now()
	for i := range min(etsyReceipts, len(skus)) {
		e.PlaceReceipt(shopID, []Line{{SKU: skus[i], Quantity: int64(i + 1), Cents: unitCents}}, "USD", now.Add(time.Duration(i-etsyReceipts)*time.Minute))
	}
	return ch, nil
}
