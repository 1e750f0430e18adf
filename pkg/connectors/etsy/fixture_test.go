package etsy_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

func TestMain(m *testing.M) {
	connectors.Register(etsy.Connector)
	testenv.Main(m)
}

// fixture is a test's account, a channel on an Etsy sandbox shop, the runtime and its inbox.
type fixture struct {
	sb    *sbx.Sandbox
	ch    connectors.Channel
	rt    *connectors.Runtime
	inbox *connectorstest.Inbox
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
	f := &fixture{sb: sb, inbox: &connectorstest.Inbox{}}
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f.ch = connectors.Channel{Account: acct.ID, UUID: store.NewID(), Connector: "etsy",
		Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + sbx.TokenPath}}
	sb.BindChannel(strconv.FormatInt(shop, 10), f.ch.UUID)
	sealer := connectorstest.NewSealer(t)
	plain, _ := json.Marshal(map[string]string{"client_id": keystring, "client_secret": secret,
		"refresh_token": refresh, "shop_id": strconv.FormatInt(shop, 10)})
	f.ch.Credentials, _ = sealer.Seal(context.Background(), acct.ID, f.ch.UUID, plain)
	f.rt = &connectors.Runtime{Table: env.Deps.Table, Sealer: sealer, Inbox: f.inbox,
		Channels: connectorstest.Channels{Ch: f.ch}, Policy: webhookhttp.Policy{Local: true}, MaxWait: 10 * time.Second,
		Overlap: time.Second, HTTP: &http.Client{Timeout: 30 * time.Second}}
	router := loadModel(t)
	t.Cleanup(func() { validateRequests(t, sb, router) })
	return f
}

// session is a session of the fixture's channel.
func (f *fixture) session(t *testing.T) *connectors.Session {
	t.Helper()
	s, err := f.rt.Session(ctx(t, time.Minute), f.ch)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ctx is a test's bounded context.
func ctx(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}
