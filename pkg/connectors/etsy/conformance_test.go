package etsy_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// shop is the sandbox shop of the tests.
const shop int64 = 31400001

// TestConformance runs the connector conformance suite on the Etsy sandbox.
func TestConformance(t *testing.T) {
	t.Parallel()
	connectorstest.Run(t, connectorstest.Harness{Connector: etsy.Connector, PageSize: etsy.PageSize, WholeShipments: true,
		Start: func(t *testing.T, channel string) connectorstest.Sandbox {
			sb, err := sbx.New()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = sb.Close() })
			creds := map[string]string{"client_id": "keystring-conformance", "client_secret": "secret-conformance-1",
				"refresh_token": "31400001.refresh-conformance-1", "shop_id": strconv.FormatInt(shop, 10)}
			sb.AddShop(shop, shop, creds["client_id"], creds["client_secret"], creds["refresh_token"])
			sb.BindChannel(strconv.FormatInt(shop, 10), channel)
			sb.AddListing(shop, "SKU-1", 5)
			raw, _ := json.Marshal(creds)
			return connectorstest.Sandbox{URL: sb.URL, Credentials: raw, SKU: "SKU-1",
				Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + sbx.TokenPath},
				Refuse:    func(on bool) { sb.Refuse(strconv.FormatInt(shop, 10), on) },
				Quantity:  func(sku string) (int64, bool) { return sb.Quantity(shop, sku) },
				Trackings: func(id, _ string) int {
					n, _ := strconv.ParseInt(id, 10, 64)
					return len(sb.Shipments(shop, n))
				},
				Orders: func(r *http.Request) bool {
					return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/receipts")
				},
				Bind: func(channel string) { sb.BindChannel(strconv.FormatInt(shop, 10), channel) },
				BadOrder: func() string {
					id := sb.PlaceReceipt(shop, nil, "USD", time.Now())
					return strconv.FormatInt(id, 10)
				},
			}
		}})
}
