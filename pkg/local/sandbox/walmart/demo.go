package walmart

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/walmart"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// demoChannel is the name of the demo channel the Walmart sandbox serves.
const demoChannel = "Walmart (sandbox)"

// demoListings and demoOrders are how many products the Walmart channel lists and how many
// orders its sandbox seller has for the first poll to import.
const (
	demoListings = 3
	demoOrders   = 3
)

func init() {
	demo.Register(demo.Kind{Connector: walmart.Connector, Title: "Walmart Marketplace API",
		Open: demo.Opener(Open, func(s *Sandbox) *sandbox.Server { return s.Server }, connectDemo)})
}

// connectDemo connects the account to the Walmart sandbox as the Walmart connector reaches
// Walmart: it opens a seller account (an API key) in the sandbox, connects the channel
// demoChannel (type Walmart) to it through the channels service's connect path (the
// connector verifies the credentials against the sandbox), records that the seller is that
// channel (so `multisell sandbox order` finds it), lists the account's first simple
// products on it by equal SKU in both, and places a few orders there for the scheduled poll
// to import (and acknowledge). Run it after Seed with walmart.Connector registered.
func connectDemo(ctx context.Context, d *app.Deps, account string, s *Sandbox) (channels.Channel, error) {
	clientID := "demo-" + account
	secret := rand.Text()
	s.AddSeller(clientID, secret)
	ch, err := demo.Connect(ctx, d, account, demoChannel, walmart.Connector.Spec().Name,
		map[string]string{"client_id": clientID, "client_secret": secret, "market": walmart.Market},
		channels.Endpoints{API: s.URL, Auth: s.URL + TokenPath})
	if err != nil {
		return channels.Channel{}, err
	}
	s.BindChannel(clientID, ch.UUID)
	skus, err := demo.ListProducts(ctx, d, account, ch, demoListings, func(sku string, _ int) string {
		s.AddItem(clientID, sku, 0)
		return ""
	})
	if err != nil {
		return channels.Channel{}, err
	}
	now := time.Now()
	s.Change(clientID, func(sl *Seller) {
		for i := range min(demoOrders, len(skus)) {
			o := NewOrder(sl.nextPO(), skus[i], int64(i+1), 1, "USD", now.Add(time.Duration(i-demoOrders)*time.Minute))
			sl.Orders[o.PurchaseOrderID] = &o
		}
	})
	return ch, nil
}
