package shopify_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestConformance runs the connector conformance suite on the Shopify sandbox, for a channel
// of each credentials form: a legacy access token, and an app approved by consent whose
// expiring offline tokens rotate their refresh token.
func TestConformance(t *testing.T) {
	t.Parallel()
	for _, form := range []string{"access token", "refresh token"} {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			connectorstest.Run(t, connectorstest.Harness{Connector: shopify.Connector, PageSize: shopify.OrdersPage,
				Start:    func(t *testing.T, channel string) connectorstest.Sandbox { return startConformance(t, channel, form) },
				Optional: []string{"refresh_token"}})
		})
	}
}

// startConformance starts a sandbox with the shop of channel, connected with credentials of
// form.
func startConformance(t *testing.T, channel, form string) connectorstest.Sandbox {
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	token := "shpat_" + store.NewID()
	location := sb.AddShop(token, "conformance.myshopify.com")
	sb.BindChannel(token, channel)
	sb.AddVariant(token, "SKU-1", 5)
	raw, _ := json.Marshal(map[string]string{"shop_domain": "conformance.myshopify.com", "access_token": token, "location_id": location})
	endpoints := connectors.Endpoints{API: sb.URL}
	if form == "refresh token" {
		raw, endpoints.Auth = refreshCredentials(t, sb, "conformance.myshopify.com", location), sb.URL+sbx.TokenPath
	}
	return connectorstest.Sandbox{URL: sb.URL, Credentials: raw, SKU: "SKU-1", Endpoints: endpoints,
		Refuse:    func(on bool) { sb.Refuse(token, on) },
		Quantity:  func(sku string) (int64, bool) { return sb.Available(token, sb.Item(token, sku)) },
		Trackings: func(id, _ string) int { return len(sb.Fulfillments(token, id)) },
		Orders:    isOrdersQuery,
		Bind:      func(channel string) { sb.BindChannel(token, channel) },
		BadOrder: func() string {
			return sb.PutOrder(token, time.Now()).Name // an order without lines
		},
	}
}

// isOrdersQuery reports whether a request is the GraphQL query of a page of orders.
func isOrdersQuery(r *http.Request) bool {
	if r.GetBody == nil {
		return false
	}
	body, err := r.GetBody()
	if err != nil {
		return false
	}
	b, _ := io.ReadAll(body)
	return bytes.Contains(b, []byte("query Orders("))
}
