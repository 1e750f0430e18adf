package ebay_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestConformance runs the connector conformance suite on the eBay sandbox.
func TestConformance(t *testing.T) {
	t.Parallel()
	connectorstest.Run(t, connectorstest.Harness{Connector: ebay.Connector, PageSize: ebay.PageSize,
		Start: func(t *testing.T, channel string) connectorstest.Sandbox {
			sb, err := sbx.New()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = sb.Close() })
			creds := map[string]string{"client_id": seller, "client_secret": "secret-conformance-1",
				"refresh_token": "refresh-conformance-1", "marketplace_id": "EBAY_US"}
			sb.AddSeller(seller, creds["client_secret"], creds["refresh_token"], "EBAY_US")
			sb.BindChannel(seller, channel)
			sb.AddListing(seller, "SKU-1", 5)
			raw, _ := json.Marshal(creds)
			return connectorstest.Sandbox{URL: sb.URL, Credentials: raw, SKU: "SKU-1",
				Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + sbx.TokenPath},
				Refuse:    func(on bool) { sb.Refuse(seller, on) },
				Quantity:  func(sku string) (int64, bool) { return sb.Quantity(seller, sku) },
				Trackings: func(_, ref string) int { return len(sb.Fulfillments(seller, ref)) },
				Bind:      func(channel string) { sb.BindChannel(seller, channel) },
				Orders: func(r *http.Request) bool {
					return r.Method == http.MethodGet && r.URL.Path == "/sell/fulfillment/v1/order"
				},
				BadOrder: func() string {
					o := sbx.NewOrder("99-00000-BAD01", "SKU-1", 1, time.Now())
					o.LineItems = nil
					sb.PutOrder(seller, o)
					return o.OrderID
				},
			}
		}})
}
