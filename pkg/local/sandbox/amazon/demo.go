package amazon

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// demoChannel is the name of the demo channel the Amazon sandbox serves.
const demoChannel = "Amazon (sandbox)"

// The demo seller's marketplace (Amazon US) and how many products it lists.
const (
	amazonMarketplace = "ATVPDKIKX0DER"
	amazonListings    = 3
)

func init() {
	demo.Register(demo.Kind{Connector: amazon.Default, Title: "Amazon Selling Partner API",
		Open: demo.Opener(Open, func(a *Amazon) *sandbox.Server { return a.Server }, connectDemo, consentDemo)})
}

// connectDemo connects the account to the Amazon sandbox a as multisell's Amazon
// connector reaches Amazon: it adds a seller of its own to a, connects the channel
// demoChannel to it through the channels service's connect path (the connector verifies
// the credentials against the sandbox), binds the seller to that channel (so `multisell
// sandbox order` finds it), lists the account's first products on it by equal SKU, with
// listings of the seller's own in the sandbox (the last fulfilled by Amazon, so it shows
// off), and places an Unshipped and a Pending order there for the poll to import. Run it
// after Seed with the Amazon connector registered (pkg/connectors/builtin).
func connectDemo(ctx context.Context, d *app.Deps, account string, a *Amazon) (channels.Channel, error) {
	seller := "A" + rand.Text()[:12]
	clientID, secret, refresh := "amzn1.application-oa2-client."+rand.Text(), rand.Text(), "Atzr|"+rand.Text()
	a.AddSeller(seller, amazonMarketplace, clientID, secret, refresh)
	ch, err := demo.Connect(ctx, d, account, demoChannel, amazon.Default.Spec().Name,
		map[string]string{"refresh_token": refresh, "client_id": clientID, "client_secret": secret,
			"seller_id": seller, "marketplace_id": amazonMarketplace},
		channels.Endpoints{API: a.URL, Auth: a.URL + TokenPath})
	if err != nil {
		return channels.Channel{}, err
	}
	a.BindChannel(seller, ch.UUID)
	skus, err := demo.ListProducts(ctx, d, account, ch, amazonListings, func(sku string, i int) string {
		a.PutListing(seller, Listing{SKU: sku, FBA: i == amazonListings-1, Quantity: 5})
		return ""
	})
	if err != nil {
		return channels.Channel{}, err
	}
	now := time.Now().UTC()
	for i, status := range []string{"Unshipped", "Pending"} {
		if i >= len(skus) {
			break
		}
		id := fmt.Sprintf("114-%07d-%07d", now.Unix()%10_000_000, i+1)
		a.PutOrder(seller, StoredOrder{
			Order: Order{AmazonOrderID: id, PurchaseDate: now.Add(-time.Hour).Format(time.RFC3339), OrderStatus: status,
				FulfillmentChannel: "MFN", ShipServiceLevel: "Std US D2D Dom", OrderTotal: &Money{CurrencyCode: "USD", Amount: "24.99"},
				ShippingAddress: &Address{Name: "Sandbox Buyer", AddressLine1: "410 Terry Ave N", City: "Seattle", StateOrRegion: "WA", PostalCode: "98109", CountryCode: "US"}},
			Items: []OrderItem{{ASIN: "B0DEMO0001", SellerSKU: skus[i], OrderItemID: fmt.Sprintf("%d%013d", i+1, now.UnixNano()%1e13),
				QuantityOrdered: 1, ItemPrice: &Money{CurrencyCode: "USD", Amount: "24.99"}}},
		})
	}
	return ch, nil
}
