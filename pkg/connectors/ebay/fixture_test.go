package ebay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

func TestMain(m *testing.M) {
	connectors.Register(ebay.Connector)
	testenv.Main(m)
}

// fixture is a test's account, a channel on an eBay sandbox seller, and what the runtime
// sent and got.
type fixture struct {
	env    *testenv.Env
	sb     *sbx.Sandbox
	ch     connectors.Channel
	inbox  *connectorstest.Inbox
	sealer connectorstest.Sealer
	rec    *connectorstest.Recorder
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
	f := &fixture{env: env, sb: sb, inbox: &connectorstest.Inbox{}, sealer: connectorstest.NewSealer(t), rec: &connectorstest.Recorder{}, seller: seller}
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f.ch = connectors.Channel{Account: acct.ID, UUID: store.NewID(), Connector: "ebay",
		Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + sbx.TokenPath}}
	plain, _ := json.Marshal(map[string]string{"client_id": seller, "client_secret": "s3cr3t-value",
		"refresh_token": "refresh-value", "marketplace_id": "EBAY_US"})
	f.ch.Credentials, _ = f.sealer.Seal(context.Background(), acct.ID, f.ch.UUID, plain)
	f.models = loadModels(t)
	t.Cleanup(func() { f.validate(t) })
	return f
}

// runtime is a new instance of the runtime.
func (f *fixture) runtime(maxWait time.Duration) *connectors.Runtime {
	return &connectors.Runtime{Table: f.env.Deps.Table, Sealer: f.sealer, Inbox: f.inbox,
		Channels: connectorstest.Channels{Ch: f.ch}, Policy: webhookhttp.Policy{Local: true}, MaxWait: maxWait,
		Overlap: time.Second, HTTP: &http.Client{Transport: f.rec, Timeout: 30 * time.Second}}
}

// quantity is an outbox listing.quantity message of the fixture's channel, for a listing
// that keeps no listing_ref.
func (f *fixture) quantity(sku string, q, version int64) connectors.Message {
	return f.quantityRef(sku, nil, q, version)
}

// quantityRef is an outbox listing.quantity message of a listing that keeps ref (nil: none).
func (f *fixture) quantityRef(sku string, ref *string, q, version int64) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "listing.quantity", "account_id": f.ch.Account, "channel_uuid": f.ch.UUID,
		"channel_type": "eBay", "channel_sku": sku, "listing_ref": ref, "sku": sku, "quantity": q, "version": version})
	return connectors.Message{ID: fmt.Sprintf("%s-%d", sku, version), Body: string(b), Account: f.ch.Account}
}

// tracking is an outbox shipment.tracking message of the fixture's channel.
func (f *fixture) tracking(order, shipment, carrier string, items ...map[string]any) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "shipment.tracking", "account_id": f.ch.Account, "channel_uuid": f.ch.UUID,
		"channel_type": "eBay", "display_ref": order, "shipment_id": shipment, "carrier_name": carrier,
		"carrier_name_given": carrier, "tracking_number": "9400" + shipment, "tracking_url": nil, "shipping_method": nil,
		"items": items, "shipped_at": "2026-11-20T10:00:00Z"})
	return connectors.Message{ID: shipment, Body: string(b), Account: f.ch.Account}
}

// ctx is a test's bounded context.
func ctx(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}

// tradingCalls are the Trading API calls of name the connector made, each with the number of
// InventoryStatus it carried.
func (f *fixture) tradingCalls(name string) []int {
	var out []int
	for _, x := range f.rec.Exchanges() {
		if x.Request.URL.Path == "/ws/api.dll" && x.Request.Header.Get("X-EBAY-API-CALL-NAME") == name {
			out = append(out, bytes.Count(x.Body, []byte("<InventoryStatus>")))
		}
	}
	return out
}
