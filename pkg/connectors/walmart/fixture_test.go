package walmart_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/walmart"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/walmart"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

func TestMain(m *testing.M) {
	connectors.Register(walmart.Connector)
	testenv.Main(m)
}

// seller is the sandbox seller's client id of every test.
const seller = "client-walmart-1"

// sandboxOps are the sandbox's operations by the connector's operation whose limit they take.
var sandboxOps = map[string][]string{
	walmart.OpToken:       {sbx.OpToken},
	walmart.OpOrders:      {sbx.OpGetAllOrders, sbx.OpGetAnOrder},
	walmart.OpAcknowledge: {sbx.OpAcknowledge},
	walmart.OpShipping:    {sbx.OpShipping},
	walmart.OpInventory:   {sbx.OpUpdateItem},
	walmart.OpFeedStatus:  {sbx.OpFeedItemStatus, sbx.OpFeedStatuses},
}

// startSandbox starts a Walmart sandbox holding the connector's limits (the feed's is the
// sandbox's own: Walmart's published 10 an hour), its feeds processed at once.
func startSandbox(t *testing.T) *sbx.Sandbox {
	t.Helper()
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	for op, ops := range sandboxOps {
		for _, sop := range ops {
			sb.SetLimit(sop, walmart.Limits[op].Rate, walmart.Limits[op].Burst)
		}
	}
	sb.FeedDelay = 0
	return sb
}

// fixture is a test's account, a channel on a Walmart sandbox seller, and what the runtime
// sent and got.
type fixture struct {
	env    *testenv.Env
	sb     *sbx.Sandbox
	ch     connectors.Channel
	inbox  *connectorstest.Inbox
	sealer connectorstest.Sealer
	rec    *connectorstest.Recorder
	// models: Walmart's models are loaded; every exchange is checked against them.
	models bool
}

// newFixture starts a Walmart sandbox holding the connector's limits, with one seller bound
// to a channel of a new account.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	env := testenv.Get(t)
	sb := startSandbox(t)
	sb.AddSeller(seller, "s3cr3t-walmart")
	f := &fixture{env: env, sb: sb, inbox: &connectorstest.Inbox{}, sealer: connectorstest.NewSealer(t), rec: &connectorstest.Recorder{}}
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f.ch = connectors.Channel{Account: acct.ID, UUID: store.NewID(), Connector: "walmart",
		Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + sbx.TokenPath}}
	sb.BindChannel(seller, f.ch.UUID)
	plain, _ := json.Marshal(map[string]string{"client_id": seller, "client_secret": "s3cr3t-walmart", "market": "US"})
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

// quantity is an outbox listing.quantity message of the fixture's channel.
func (f *fixture) quantity(sku string, q, version int64) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "listing.quantity", "account_id": f.ch.Account, "channel_uuid": f.ch.UUID,
		"channel_type": "Walmart", "channel_sku": sku, "listing_ref": nil, "sku": sku, "quantity": q, "version": version})
	return connectors.Message{ID: fmt.Sprintf("%s-%d", sku, version), Body: string(b), Account: f.ch.Account}
}

// ctx is a test's bounded context.
func ctx(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}
