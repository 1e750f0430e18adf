package ebay_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

func TestMain(m *testing.M) {
	connectors.Register(ebay.Connector)
	testenv.Main(m)
}

// fixture is a test's account, a channel on an eBay sandbox seller, and what the runtime
// sent and got.
type fixture struct {
	*connectorstest.Fixture
	sb     *sbx.Sandbox
	seller string
	// models: eBay's documents are loaded; every exchange is checked against them.
	models bool
}

const seller = "client-1"

// newFixture starts an eBay sandbox holding the connector's published limits, with one
// seller, and a channel of a new account on it.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	env := testenv.Get(t)
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.SetLimit(sbx.OpGetOrders, ebay.Limits[ebay.OpFulfillment].Rate, ebay.Limits[ebay.OpFulfillment].Burst)
	sb.SetLimit(sbx.OpFulfill, ebay.Limits[ebay.OpFulfillment].Rate, ebay.Limits[ebay.OpFulfillment].Burst)
	sb.SetLimit(sbx.OpBulkQuantity, ebay.Limits[ebay.OpInventory].Rate, ebay.Limits[ebay.OpInventory].Burst)
	sb.SetLimit(sbx.OpGetOffers, ebay.Limits[ebay.OpInventory].Rate, ebay.Limits[ebay.OpInventory].Burst)
	sb.SetLimit(sbx.OpTrading, ebay.Limits[ebay.OpTrading].Rate, ebay.Limits[ebay.OpTrading].Burst)
	sb.SetLimit(sbx.OpToken, ebay.Limits[ebay.OpToken].Rate, ebay.Limits[ebay.OpToken].Burst)
	sb.AddSeller(seller, "s3cr3t-value", "refresh-value", "EBAY_US")
	f := &fixture{sb: sb, seller: seller, Fixture: connectorstest.NewFixture(t, env, connectorstest.FixtureChannel{
		Connector: "ebay", Type: "eBay", API: sb.URL, Auth: sb.URL + sbx.TokenPath,
		Credentials: map[string]string{"client_id": seller, "client_secret": "s3cr3t-value",
			"refresh_token": "refresh-value", "marketplace_id": "EBAY_US"}})}
	f.models = models.Load(t)
	t.Cleanup(func() { f.validate(t) })
	return f
}

// tracking is an outbox shipment.tracking message of the fixture's channel.
func (f *fixture) tracking(order, shipment, carrier string, items ...map[string]any) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "shipment.tracking", "account_id": f.Ch.Account, "channel_uuid": f.Ch.UUID,
		"channel_type": "eBay", "display_ref": order, "shipment_id": shipment, "carrier_name": carrier,
		"carrier_name_given": carrier, "tracking_number": "9400" + shipment, "tracking_url": nil, "shipping_method": nil,
		"items": items, "shipped_at": "2026-11-20T10:00:00Z"})
	return connectors.Message{ID: shipment, Body: string(b), Account: f.Ch.Account}
}

// tradingCalls are the Trading API calls of name the connector made, each with the number of
// InventoryStatus it carried.
func (f *fixture) tradingCalls(name string) []int {
	var out []int
	for _, x := range f.Rec.Exchanges() {
		if x.Request.URL.Path == "/ws/api.dll" && x.Request.Header.Get("X-EBAY-API-CALL-NAME") == name {
			out = append(out, bytes.Count(x.Body, []byte("<InventoryStatus>")))
		}
	}
	return out
}

// ctx is a test's bounded context.
var ctx = connectorstest.Ctx
