package shopify_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/shopify"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

func TestMain(m *testing.M) {
	connectors.Register(shopify.Connector)
	testenv.Main(m)
}

// plain "seals" by keeping the plaintext: these tests are about the connector, not secrets.
type plain struct{}

func (plain) Seal(_ context.Context, _, _ string, b []byte) ([]byte, error) { return b, nil }
func (plain) Open(_ context.Context, _, _ string, b []byte) ([]byte, error) { return b, nil }

// fixture is a test's account, its Shopify channel on a sandbox shop, and a runtime.
type fixture struct {
	*connectorstest.Fixture
	sb       *sbx.Shop
	token    string
	location string
	rt       *connectors.Runtime
}

// newFixture starts a sandbox with one shop, and a channel of a new account on it.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	env := testenv.Get(t)
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	token := "shpat_" + store.NewID()
	location := sb.AddShop(token, "sandbox.myshopify.com")
	f := &fixture{sb: sb, token: token, location: location, Fixture: connectorstest.NewFixture(t, env, connectorstest.FixtureChannel{
		Connector: "shopify", Type: "Shopify", API: sb.URL, Sealer: plain{}, OwnClient: true,
		Credentials: map[string]string{"shop_domain": "sandbox.myshopify.com", "access_token": token, "location_id": location}})}
	f.rt = f.Runtime(10 * time.Second)
	return f
}

// session is a session of the fixture's channel, as the runtime builds it.
func (f *fixture) session(t *testing.T) *connectors.Session {
	t.Helper()
	s, err := f.rt.Session(context.Background(), f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// quantity is an outbox listing.quantity message of the channel (ref: the listing ref, "" none).
func (f *fixture) quantity(sku, ref string, q int64) connectors.Message {
	var lr any
	if ref != "" {
		lr = ref
	}
	b, _ := json.Marshal(map[string]any{"type": "listing.quantity", "account_id": f.Ch.Account, "channel_uuid": f.Ch.UUID,
		"channel_type": "Shopify", "channel_sku": sku, "listing_ref": lr, "sku": sku, "quantity": q, "version": 1})
	return connectors.Message{ID: sku, Body: string(b), Account: f.Ch.Account}
}

// tracking is an outbox shipment.tracking message of the channel.
func (f *fixture) tracking(order, shipment string, items ...map[string]any) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "shipment.tracking", "account_id": f.Ch.Account, "channel_uuid": f.Ch.UUID,
		"channel_type": "Shopify", "display_ref": order, "shipment_id": shipment, "carrier_name": "UPS",
		"carrier_name_given": "ups", "tracking_number": "1Z999", "tracking_url": "https://www.ups.com/track?tracknum=1Z999",
		"shipping_method": nil, "items": items, "shipped_at": "2026-11-23T20:00:04Z"})
	return connectors.Message{ID: shipment, Body: string(b), Account: f.Ch.Account}
}

// push pushes msgs with the fixture's runtime, all of which must be done (neither put off
// nor failed to answer), and returns the results sent.
func (f *fixture) push(t *testing.T, c context.Context, msgs []connectors.Message) []map[string]any {
	t.Helper()
	connectorstest.WantOutcomes(t, f.rt.Push(c, msgs), false)
	return f.Inbox.TakeResults()
}

var (
	officialOnce   sync.Once
	official       *ast.Schema
	officialErr    error
	officialSource = "shopify/" + shopify.Version + "/schema.graphql"
)

// validateRequests checks every GraphQL request the sandbox received against Shopify's
// official schema of the connector's version (skipped with a message when it is not beside
// the repository): it parses and validates, its variables have the types the operation
// declares, inventorySetQuantities carries @idempotent and each quantity its
// changeFromQuantity (the schema says it is mandatory, null or not).
func validateRequests(t *testing.T, sb *sbx.Shop) {
	t.Run("requests validate against the official schema", func(t *testing.T) {
		path := testenv.ChannelModel(t, officialSource)
		officialOnce.Do(func() {
			b, err := os.ReadFile(path)
			if err != nil {
				officialErr = err
				return
			}
			official, officialErr = gqlparser.LoadSchema(&ast.Source{Name: path, Input: string(b)})
		})
		if officialErr != nil {
			t.Fatalf("load %s: %v", path, officialErr)
		}
		reqs := sb.Requests()
		if len(reqs) == 0 {
			t.Fatal("no request was recorded")
		}
		for _, r := range reqs {
			doc, gerrs := gqlparser.LoadQueryWithRules(official, r.Query, nil)
			if len(gerrs) > 0 {
				t.Errorf("%s\ndoes not validate: %v", r.Query, gerrs)
				continue
			}
			op := doc.Operations.ForName(r.OperationName)
			if _, err := validator.VariableValues(official, op, r.Variables); err != nil {
				t.Errorf("%s\nvariables %v: %v", r.Query, r.Variables, err)
			}
			if strings.Contains(r.Query, "inventorySetQuantities") {
				if !strings.Contains(r.Query, "@idempotent(key:") {
					t.Errorf("inventorySetQuantities without @idempotent: %s", r.Query)
				}
				in, _ := r.Variables["input"].(map[string]any)
				qs, _ := in["quantities"].([]any)
				for _, q := range qs {
					if _, ok := q.(map[string]any)["changeFromQuantity"]; !ok {
						t.Errorf("a quantity without changeFromQuantity: %v", q)
					}
				}
			}
		}
		t.Logf("%d requests validated against %s", len(reqs), officialSource)
	})
}

// ctx is a test's bounded context.
var ctx = connectorstest.Ctx
