package walmart_test

import (
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/walmart"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/walmart"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
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
	*connectorstest.Fixture
	sb *sbx.Sandbox
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
	f := &fixture{sb: sb, Fixture: connectorstest.NewFixture(t, env, connectorstest.FixtureChannel{
		Connector: "walmart", Type: "Walmart", API: sb.URL, Auth: sb.URL + sbx.TokenPath,
		Credentials: map[string]string{"client_id": seller, "client_secret": "s3cr3t-walmart", "market": "US"}})}
	sb.BindChannel(seller, f.Ch.UUID)
	f.models = models.Load(t)
	t.Cleanup(func() { f.validate(t) })
	return f
}

// ctx is a test's bounded context.
var ctx = connectorstest.Ctx
