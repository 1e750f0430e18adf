package etsy_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

func TestMain(m *testing.M) {
	connectors.Register(etsy.Connector)
	testenv.Main(m)
}

// fixture is a test's account, a channel on an Etsy sandbox shop, the runtime and its inbox.
type fixture struct {
	*connectorstest.Fixture
	sb *sbx.Sandbox
	rt *connectors.Runtime
}

// The app and shop owner of the fixture's shop.
const (
	keystring = "keystring-fixture"
	secret    = "shared-secret-fixture"
	refresh   = "31400001.refresh-fixture"
)

// newFixture starts an Etsy sandbox (which holds Etsy's per-second and per-day limits) with
// the shop, and a channel of a new account on it through a runtime over the test table. At
// the end of the test every request the sandbox received is checked against Etsy's OpenAPI
// document, and none may have come over a limit.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	env := testenv.Get(t)
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.AddShop(shop, shop, keystring, secret, refresh)
	f := &fixture{sb: sb, Fixture: connectorstest.NewFixture(t, env, connectorstest.FixtureChannel{
		Connector: "etsy", Type: "Etsy", API: sb.URL, Auth: sb.URL + sbx.TokenPath,
		Credentials: map[string]string{"client_id": keystring, "client_secret": secret,
			"refresh_token": refresh, "shop_id": strconv.FormatInt(shop, 10)}})}
	sb.BindChannel(strconv.FormatInt(shop, 10), f.Ch.UUID)
	f.rt = f.Runtime(10 * time.Second)
	loaded := models.Load(t)
	t.Cleanup(func() { validateRequests(t, sb, loaded) })
	return f
}

// session is a session of the fixture's channel.
func (f *fixture) session(t *testing.T) *connectors.Session {
	t.Helper()
	s, err := f.rt.Session(ctx(t, time.Minute), f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ctx is a test's bounded context.
var ctx = connectorstest.Ctx
