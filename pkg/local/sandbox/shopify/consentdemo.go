package shopify

import (
	"crypto/rand"
	"strings"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/demo"
)

// consentDemo is the sandbox's demo.ConsentSandbox: the public app with the stack's callback,
// a shop of its own for each consent (its token the consent page's sandbox_seller), its
// variants and quantities.
func consentDemo(s *Shop, callback string) demo.ConsentSandbox {
	return demo.ConsentSandbox{
		App: consent.AppConfig{App: s.ConsentApp(callback), Endpoints: channels.Endpoints{API: s.URL, Auth: s.URL + TokenPath}},
		AddSeller: func() (string, map[string]string) {
			token := "shpat_" + rand.Text()
			domain := "consent-" + strings.ToLower(rand.Text()[:10]) + ".myshopify.com"
			s.AddShop(token, domain)
			return token, map[string]string{"shop_domain": domain}
		},
		Bind: s.BindChannel,
		List: func(seller, sku string) string { return s.AddVariant(seller, sku, 0) },
		Quantity: func(seller, sku string) (int64, bool) {
			return s.Available(seller, s.Item(seller, sku))
		},
	}
}
