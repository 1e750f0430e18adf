package shopify

import (
	"context"
	"crypto/rand"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// demoChannel is the name of the demo channel the Shopify sandbox serves.
const demoChannel = "Shopify (sandbox)"

// shopifyListings is how many products the Shopify channel lists; shopifyOrders how many
// orders its shop has when it is connected.
const (
	shopifyListings = 3
	shopifyOrders   = 2
)

func init() {
	demo.Register(demo.Kind{Connector: shopify.Connector, Title: "Shopify Admin API " + Version,
		Open: demo.Opener(Open, func(s *Shop) *sandbox.Server { return s.Server }, connectDemo, consentDemo)})
}

// connectDemo connects the account to the Shopify sandbox sb as the Shopify connector
// reaches a shop: it opens a shop for the account in sb (an access token, a location),
// connects the channel demoChannel to it through the channels service's connect path
// (the connector verifies the token and the location), records that the shop is that
// channel (so `multisell sandbox order` finds it), gives the shop a variant of each of the
// account's first products, by equal SKU, listed with its inventory item as the listing ref,
// and places orders of them for the scheduled poll to import. Run it after Seed with
// shopify.Connector registered.
func connectDemo(ctx context.Context, d *app.Deps, account string, sb *Shop) (channels.Channel, error) {
	token := "shpat_" + rand.Text()
	domain := "demo-" + strings.ToLower(strings.NewReplacer("_", "-").Replace(account)) + ".myshopify.com"
	location := sb.AddShop(token, domain)
	ch, err := demo.Connect(ctx, d, account, demoChannel, shopify.Connector.Spec().Name,
		map[string]string{"shop_domain": domain, "access_token": token, "location_id": location},
		channels.Endpoints{API: sb.URL})
	if err != nil {
		return channels.Channel{}, err
	}
	sb.BindChannel(token, ch.UUID)
	skus, err := demo.ListProducts(ctx, d, account, ch, shopifyListings, func(sku string, _ int) string { return sb.AddVariant(token, sku, 0) })
	if err != nil {
		return channels.Channel{}, err
	}
	now := time.Now().UTC()
	for i := range min(shopifyOrders, len(skus)) {
		sb.PutOrder(token, now.Add(time.Duration(i-shopifyOrders)*time.Minute), LineInput{SKU: skus[i], Quantity: 1, Price: "24.00"})
	}
	return ch, nil
}
