package walmart_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/walmart"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/walmart"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// TestConformance runs the connector conformance suite on the Walmart sandbox.
func TestConformance(t *testing.T) {
	t.Parallel()
	connectorstest.Run(t, connectorstest.Harness{Connector: walmart.Connector, PageSize: walmart.PageSize,
		Start: func(t *testing.T, channel string) connectorstest.Sandbox {
			sb := startSandbox(t)
			creds := map[string]string{"client_id": seller, "client_secret": "secret-conformance-1", "market": "US"}
			sb.AddSeller(seller, creds["client_secret"])
			sb.BindChannel(seller, channel)
			sb.AddItem(seller, "SKU-1", 5)
			raw, _ := json.Marshal(creds)
			return connectorstest.Sandbox{URL: sb.URL, Credentials: raw, SKU: "SKU-1",
				Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + sbx.TokenPath},
				Refuse:    func(on bool) { sb.Refuse(seller, on) },
				Quantity:  func(sku string) (int64, bool) { return sb.Quantity(seller, sku) },
				Trackings: func(_, ref string) int { return sb.Shipments(seller, ref) },
				Orders: func(r *http.Request) bool {
					return r.Method == http.MethodGet && r.URL.Path == "/v3/orders"
				},
				Bind: func(channel string) { sb.BindChannel(seller, channel) },
				BadOrder: func() string {
					o := sbx.NewOrder("1799999999001", "SKU-1", 1, 1, "USD", time.Now())
					o.OrderLines.OrderLine = nil
					sb.PutOrder(seller, o)
					return o.PurchaseOrderID
				},
			}
		}})
}
