package amazon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/secrets"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/wire"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The test seller.
const (
	sellerID    = "A2TESTSELLER"
	marketplace = "ATVPDKIKX0DER"
)

// fixture is a test's account and its Amazon channel on a sandbox of its own, served by a
// connector registered under the test's name (its limits and settings).
type fixture struct {
	*connectorstest.Fixture
	sb    *amazonsb.Amazon
	conn  *amazon.Connector
	creds map[string]string
}

// fast are limits for the tests that do not need the published ones (the published
// getOrders, 0.0167/s, would make the 3 pages of 250 orders take minutes): the sandbox
// publishes them and the test's connector declares them.
var fast = map[string]connectors.Limit{
	amazon.OpGetOrders: {Rate: 5, Burst: 5}, amazon.OpGetOrderItems: {Rate: 100, Burst: 50},
}

// newFixture starts the sandbox with the published limits but those of limits, a seller,
// and a channel served by conn (registered under a name of the test's; its Limits are set
// to the published ones with limits over them).
func newFixture(t testing.TB, conn *amazon.Connector, limits map[string]connectors.Limit) *fixture {
	t.Helper()
	env := testenv.Get(t)
	sb, err := amazonsb.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	conn.Limits = map[string]connectors.Limit{}
	for op, l := range amazon.Published {
		conn.Limits[op] = l
	}
	for op, l := range limits {
		conn.Limits[op] = l
		sb.SetLimit(op, l.Rate, l.Burst)
	}
	conn.Name = fmt.Sprintf("amazon-%s-%d", t.Name(), time.Now().UnixNano())
	conn.ChannelType = conn.Name
	connectors.Register(conn)
	creds := map[string]string{"refresh_token": "Atzr|refresh", "client_id": "amzn1.application-oa2-client.test", "client_secret": "s3cr3t",
		"seller_id": sellerID, "marketplace_id": marketplace}
	sb.AddSeller(sellerID, marketplace, creds["client_id"], creds["client_secret"], creds["refresh_token"])
	f := &fixture{sb: sb, conn: conn, creds: creds, Fixture: connectorstest.NewFixture(t, env, connectorstest.FixtureChannel{
		Connector: conn.Name, Type: "Amazon", API: sb.URL, Auth: sb.URL + amazonsb.TokenPath, Credentials: creds,
		Sealer: kms{env.Deps.Secrets(secrets.Credentials)}, OwnClient: true})}
	t.Cleanup(func() { checkModels(t, sb.Requests()) })
	return f
}

// kms is a secrets.Service as a connectors.Sealer.
type kms struct{ s secrets.Service }

func (k kms) Seal(ctx context.Context, account, channel string, plain []byte) ([]byte, error) {
	return k.s.Seal(ctx, account, channel, plain)
}

func (k kms) Open(ctx context.Context, account, channel string, sealed []byte) ([]byte, error) {
	return k.s.Open(ctx, account, channel, sealed)
}

// session is a session of the channel, as the runtime builds it.
func (f *fixture) session(t *testing.T) *connectors.Session {
	t.Helper()
	s, err := f.Runtime(0).Session(context.Background(), f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tracking is an outbox shipment.tracking message of the channel.
func (f *fixture) tracking(order, shipment, carrier string, items ...wire.TrackingItem) connectors.Message {
	b, _ := json.Marshal(wire.TrackingMessage{
		Header:     wire.Header{Type: wire.TypeShipmentTracking, AccountID: f.Ch.Account, ChannelUUID: f.Ch.UUID, ChannelType: "Amazon"},
		DisplayRef: order, ShipmentID: shipment, CarrierName: carrier, CarrierNameGiven: carrier, TrackingNumber: "1Z999AA10123456784",
		Items: items, ShippedAt: "2026-11-20T15:04:05Z",
	})
	return connectors.Message{ID: shipment, Body: string(b), Account: f.Ch.Account}
}

// order places an order of one line per sku (quantity 1 each) in the sandbox, updated at.
func (f *fixture) order(id, status string, at time.Time, skus ...string) {
	o := amazonsb.StoredOrder{Order: amazonsb.Order{AmazonOrderID: id, PurchaseDate: at.Add(-time.Minute).UTC().Format(time.RFC3339),
		LastUpdateDate: at.UTC().Format(time.RFC3339), OrderStatus: status, FulfillmentChannel: "MFN",
		OrderTotal: &amazonsb.Money{CurrencyCode: "USD", Amount: "19.99"},
		ShippingAddress: &amazonsb.Address{Name: "Jane Buyer", AddressLine1: "1 Main St", AddressLine2: "Apt 2", City: "Seattle",
			StateOrRegion: "WA", PostalCode: "98109", CountryCode: "US", Phone: "+1 206-555-0100"},
		BuyerInfo: &amazonsb.BuyerInfo{BuyerEmail: "jane@marketplace.amazon.com"}}}
	for i, sku := range skus {
		o.Items = append(o.Items, amazonsb.OrderItem{ASIN: "B000TEST", SellerSKU: sku, OrderItemID: fmt.Sprintf("%s-%d", id, i+1),
			QuantityOrdered: 1, ItemPrice: &amazonsb.Money{CurrencyCode: "USD", Amount: "19.99"}})
	}
	f.sb.PutOrder(sellerID, o)
}

// ctx is a test's bounded context.
var ctx = connectorstest.Ctx
