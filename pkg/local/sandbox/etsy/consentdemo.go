package etsy

import (
	"crypto/rand"
	"math/big"
	"strconv"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/demo"
)

// The sandbox's app, the operator's app a shop owner approves by consent on the local stack.
const (
	AppClientID     = "sandboxetsyapp"
	AppClientSecret = "sandbox-etsy-app-secret"
	// consentShop is the shop a consent picks when none is named: one of its own, so that
	// approving the app leaves the demo channel's shop alone.
	consentShop = 100_000_001
)

// consentDemo is the sandbox's demo.ConsentSandbox: the app with the stack's callback, a shop
// of its own for each consent (its id the consent page's sandbox_seller), its listings and
// quantities.
func consentDemo(e *Sandbox, callback string) demo.ConsentSandbox {
	e.AddShop(consentShop, consentShop, AppClientID, AppClientSecret, rand.Text())
	return demo.ConsentSandbox{
		App: consent.AppConfig{
			App: connectors.App{ClientID: AppClientID, ClientSecret: AppClientSecret, RedirectURI: callback,
				ConsentURL: e.URL + ConsentPath, TokenURL: e.URL + TokenPath},
			Endpoints: channels.Endpoints{API: e.URL, Auth: e.URL + TokenPath}},
		AddSeller: func() (string, map[string]string) {
			n, _ := rand.Int(rand.Reader, big.NewInt(800_000_000))
			id := n.Int64() + 200_000_000
			e.AddShop(id, id, AppClientID, AppClientSecret, rand.Text())
			return strconv.FormatInt(id, 10), map[string]string{}
		},
		Bind: e.BindChannel,
		List: func(seller, sku string) string {
			id, _ := strconv.ParseInt(seller, 10, 64)
			return strconv.FormatInt(e.AddListing(id, sku, 0), 10)
		},
		Quantity: func(seller, sku string) (int64, bool) {
			id, _ := strconv.ParseInt(seller, 10, 64)
			return e.Quantity(id, sku)
		},
	}
}
