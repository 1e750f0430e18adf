package amazon_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestConformance runs the connector conformance suite on the Amazon sandbox (pages of 10
// orders, the published limits, which the sandbox holds too).
func TestConformance(t *testing.T) {
	t.Parallel()
	connectorstest.Run(t, connectorstest.Harness{Connector: &amazon.Connector{PageSize: 10}, PageSize: 10, NoLineTracking: true,
		Start: func(t *testing.T, channel string) connectorstest.Sandbox {
			sb, err := amazonsb.New()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = sb.Close() })
			creds := map[string]string{"refresh_token": "Atzr|refresh-conformance", "client_id": "amzn1.application-oa2-client.conformance",
				"client_secret": "secret-conformance-1", "seller_id": sellerID, "marketplace_id": marketplace}
			sb.AddSeller(sellerID, marketplace, creds["client_id"], creds["client_secret"], creds["refresh_token"])
			sb.BindChannel(sellerID, channel)
			sb.PutListing(sellerID, amazonsb.Listing{SKU: "SKU-1", ProductType: "PRODUCT", Quantity: 5})
			raw, _ := json.Marshal(creds)
			return connectorstest.Sandbox{URL: sb.URL, Credentials: raw, SKU: "SKU-1",
				Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + amazonsb.TokenPath},
				Refuse:    func(on bool) { sb.Refuse(sellerID, on) },
				Quantity:  func(sku string) (int64, bool) { return sb.Quantity(sellerID, sku) },
				Trackings: func(_, ref string) int { return len(sb.Confirmations(sellerID, ref)) },
				Orders:    func(r *http.Request) bool { return r.URL.Path == "/orders/v0/orders" },
				Bind:      func(channel string) { sb.BindChannel(sellerID, channel) },
				BadOrder: func() string {
					now := time.Now().UTC().Format(time.RFC3339)
					sb.PutOrder(sellerID, amazonsb.StoredOrder{Order: amazonsb.Order{AmazonOrderID: "111-0000000-BAD0001",
						LastUpdateDate: now, OrderStatus: "Unshipped", MarketplaceID: marketplace}})
					return "111-0000000-BAD0001"
				},
			}
		}})
}
