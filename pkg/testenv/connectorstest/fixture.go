package connectorstest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Fixture is what a connector's own tests share: a channel of the connector on a new account
// of the test environment, its credentials sealed, the Inbox the runtime sends to and the
// Recorder of the calls it makes. A connector's fixture embeds it and adds its sandbox.
type Fixture struct {
	Env    *testenv.Env
	Ch     connectors.Channel
	Inbox  *Inbox
	Sealer connectors.Sealer
	Rec    *Recorder
	// Type is the channel's type as the outbox messages name it.
	Type string
	// OwnClient: the runtime calls through its own client, as in production, not Rec.
	OwnClient bool
}

// FixtureChannel is the channel NewFixture connects.
type FixtureChannel struct {
	// Connector is the connector's name and Type the channel type its messages carry.
	Connector, Type string
	// API is the sandbox's URL and Auth its token endpoint.
	API, Auth string
	// Credentials are sealed, in JSON, as the channel's credentials.
	Credentials map[string]string
	// Sealer seals them (nil: a NewSealer).
	Sealer connectors.Sealer
	// OwnClient: the runtime calls through its own client (the Policy's transport, no
	// redirect followed), as in production, and Rec records nothing.
	OwnClient bool
}

// NewFixture connects the channel c on a new account of env.
func NewFixture(t testing.TB, env *testenv.Env, c FixtureChannel) *Fixture {
	t.Helper()
	if c.Sealer == nil {
		c.Sealer = NewSealer(t)
	}
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f := &Fixture{Env: env, Inbox: &Inbox{}, Sealer: c.Sealer, Rec: &Recorder{}, Type: c.Type, OwnClient: c.OwnClient,
		Ch: connectors.Channel{Account: acct.ID, UUID: store.NewID(), Connector: c.Connector,
			Endpoints: connectors.Endpoints{API: c.API, Auth: c.Auth}}}
	plain, err := json.Marshal(c.Credentials)
	if err == nil {
		f.Ch.Credentials, err = c.Sealer.Seal(context.Background(), acct.ID, f.Ch.UUID, plain)
	}
	if err != nil {
		t.Fatalf("seal the channel's credentials: %v", err)
	}
	return f
}

// Runtime is a new instance of the runtime over the test table for the fixture's channel,
// waiting maxWait at most for a limit (0: the default), its calls recorded by Rec unless
// OwnClient.
func (f *Fixture) Runtime(maxWait time.Duration) *connectors.Runtime {
	rt := &connectors.Runtime{Table: f.Env.Deps.Table, Sealer: f.Sealer, Inbox: f.Inbox,
		Channels: Channels{Ch: f.Ch}, Policy: webhookhttp.Policy{Local: true}, MaxWait: maxWait, Overlap: time.Second}
	if !f.OwnClient {
		rt.HTTP = &http.Client{Transport: f.Rec, Timeout: 30 * time.Second}
	}
	return rt
}

// Quantity is an outbox listing.quantity message of the fixture's channel, for a listing
// that keeps no listing_ref.
func (f *Fixture) Quantity(sku string, q, version int64) connectors.Message {
	return f.QuantityRef(sku, nil, q, version)
}

// QuantityRef is an outbox listing.quantity message of a listing that keeps ref (nil: none).
func (f *Fixture) QuantityRef(sku string, ref *string, q, version int64) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "listing.quantity", "account_id": f.Ch.Account, "channel_uuid": f.Ch.UUID,
		"channel_type": f.Type, "channel_sku": sku, "listing_ref": ref, "sku": sku, "quantity": q, "version": version})
	return connectors.Message{ID: fmt.Sprintf("%s-%d", sku, version), Body: string(b), Account: f.Ch.Account}
}

// Ctx is a context of the test that ends after d at the latest.
func Ctx(t testing.TB, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}

// WantOutcomes checks that every message of a push is done (putOff false: no retry, no
// error, not dropped), or put off until a time to retry (putOff true).
func WantOutcomes(t testing.TB, rep connectors.PushReport, putOff bool) {
	t.Helper()
	for _, o := range rep.Outcomes {
		if o.Drop != "" || o.Err != nil || o.RetryAt.IsZero() == putOff {
			t.Fatalf("outcome %+v, want put off %v", o, putOff)
		}
	}
}

// WantUnder checks that no call of the operations ops came over the sandbox's limit.
func WantUnder(t testing.TB, sb interface{ Over(op string) int }, ops ...string) {
	t.Helper()
	for _, op := range ops {
		if n := sb.Over(op); n != 0 {
			t.Errorf("%d calls of %s over the limit", n, op)
		}
	}
}
