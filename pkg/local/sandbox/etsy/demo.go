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

// connectDemo connects the account to the Etsy sandbox e as a shop owner does, by consent
// (Etsy's only way): it opens a shop of the account's for the sandbox's app, connects the
// channel demoChannel (type Etsy) through the consent flow (an authorization, the consent
// page approved for that shop, the callback: the code exchanged with its PKCE verifier and
// the channel verified and connected), binds the shop to the channel (so `multisell sandbox
// order` finds it), lists the account's first simple products there by equal SKU (each its
// own listing, its id the listing_ref), and places receipts for the scheduled poll. The
// sandbox's app must be the stack's first (its Consent hook).
func connectDemo(ctx context.Context, d *app.Deps, account string, e *Sandbox) (channels.Channel, error) {
	shopID := int64(crc32.ChecksumIEEE([]byte(account))%900_000_000) + 100_000_000
	e.AddShop(shopID, shopID, AppClientID, AppClientSecret, rand.Text())
	ch, err := demo.ConnectByConsent(ctx, d, account, demoChannel, etsy.Connector.Spec().Name, strconv.FormatInt(shopID, 10), nil)
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
