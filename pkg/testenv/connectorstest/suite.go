package connectorstest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Harness is what a connector package gives the conformance suite (Run): its connector and
// a way to start its sandbox. The suite drives the connector through the runtime, on a table
// of the test environment, with a fake inbox; the faults it needs of the marketplace it
// injects itself between the runtime and the sandbox (Faults), so a sandbox needs only the
// controls of Sandbox.
type Harness struct {
	// Connector is the connector under test, with limits its sandbox holds too. The suite
	// registers it under a name of each case.
	Connector connectors.Connector
	// PageSize is the most orders one page of the connector's poll holds.
	PageSize int
	// NoLineTracking says the marketplace's orders do not give the carrier and tracking
	// number of a line the seller shipped with its own tools (Amazon's Orders API), so the
	// documents cannot carry them.
	NoLineTracking bool
	// WholeShipments says the marketplace ships a line whole, once (an Etsy shipment is its
	// receipt's): the case of a line shipped after import ships it in one part, not two.
	WholeShipments bool
	// Start starts the marketplace's sandbox with one seller whose shop is the channel uuid
	// (orders placed through sandbox.AdminOrdersPath are its) and has a listing.
	Start func(t *testing.T, channel string) Sandbox
	// Optional names the credentials' fields without which they are another valid form
	// (Shopify's refresh_token: without it, a Dev Dashboard app's client credentials).
	Optional []string
}

// Sandbox is a started sandbox of one seller, as the suite drives it.
type Sandbox struct {
	// URL is the sandbox's base URL (sandbox.AdminOrdersPath places orders there).
	URL string
	// Credentials are the seller's credentials JSON; Endpoints the sandbox's.
	Credentials []byte
	Endpoints   connectors.Endpoints
	// SKU is a listing of the seller's.
	SKU string
	// Refuse makes the seller's credentials and tokens refused (on) or accepted again.
	Refuse func(on bool)
	// Quantity is what the seller's listing sku shows.
	Quantity func(sku string) (int64, bool)
	// Trackings is the number of trackings posted on the order the sandbox placed as id
	// (sandbox.AdminOrdersPath's answer), display ref ref.
	Trackings func(id, ref string) int
	// Orders reports whether a request is one for a page of orders of a poll.
	Orders func(r *http.Request) bool
	// BadOrder, when set, places an order of the seller the connector cannot turn into an
	// order document and returns its display ref (nil: the marketplace has none).
	BadOrder func() string
	// ForeignOrder, when set, places an order whose document names the channel other (nil:
	// the connector names the session's channel in every document it builds).
	ForeignOrder func(other string)
	// Bind makes the seller's shop that of channel too (the sandbox's BindChannel), for a
	// channel connected through the local stack (CaseStackLines; nil skips it).
	Bind func(channel string)
}

// Run runs the conformance suite: each case a subtest, on its own channel and sandbox, and
// CaseStackLines on a channel connected through the local stack. It starts the test
// environment's emulators: an integration test.
func Run(t *testing.T, h Harness) {
	testenv.SkipShort(t)
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{}).ID
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(newCase(t, t, h, env, acct))
		})
	}
	t.Run(CaseStackLines, func(t *testing.T) {
		t.Parallel()
		stackLines(t, h)
	})
}

// T is what a case reports to: a *testing.T, or a recorder (planted_test.go).
type T interface {
	Helper()
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// C is one case's world: its channel on a sandbox, the runtime (its client through the
// faults), the inbox.
type C struct {
	T
	h       Harness
	sb      Sandbox
	conn    connectors.Connector
	ch      connectors.Channel
	rt      *connectors.Runtime
	inbox   *Inbox
	faults  *Faults
	secrets []string
	seen    map[string]bool // display refs sent in the case (fresh)
}

// newCase starts a case's sandbox and channel; setup reports to setupT, the case to t.
func newCase(setupT *testing.T, t T, h Harness, env *testenv.Env, acct string) *C {
	uuid := store.NewID()
	sb := h.Start(setupT, uuid)
	name := fmt.Sprintf("conformance-%s-%d", setupT.Name(), time.Now().UnixNano())
	conn := named{Connector: h.Connector, name: name}
	connectors.Register(conn)
	sealer := NewSealer(setupT)
	ch := connectors.Channel{Account: acct, UUID: uuid, Connector: name, Endpoints: sb.Endpoints}
	sealed, err := sealer.Seal(context.Background(), acct, uuid, sb.Credentials)
	if err != nil {
		setupT.Fatal(err)
	}
	ch.Credentials = sealed
	c := &C{T: t, h: h, sb: sb, conn: conn, ch: ch, inbox: &Inbox{}, faults: &Faults{}, seen: map[string]bool{}}
	c.rt = &connectors.Runtime{Table: env.Deps.Table, Sealer: sealer, Inbox: c.inbox, Channels: Channels{Ch: ch},
		Policy: webhookhttp.Policy{Local: true}, MaxWait: 10 * time.Second, Overlap: time.Second,
		HTTP: &http.Client{Timeout: 30 * time.Second, Transport: c.faults}}
	var creds map[string]any
	_ = json.Unmarshal(sb.Credentials, &creds)
	for k, v := range creds {
		if s, ok := v.(string); ok && len(s) >= 6 && !slices.Contains(connectors.Identities, k) {
			c.secrets = append(c.secrets, s)
		}
	}
	return c
}

// named is a connector registered under a case's name.
type named struct {
	connectors.Connector
	name string
}

// Spec is the connector's, under the case's name.
func (n named) Spec() connectors.Spec {
	s := n.Connector.Spec()
	s.Name, s.ChannelType = n.name, n.name
	return s
}

// ctx is a bounded context of the case.
func (c *C) ctx(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// checkErr fails the case when err quotes a credential value.
func (c *C) checkErr(what string, err error) {
	c.Helper()
	if err == nil {
		return
	}
	for _, s := range c.secrets {
		if strings.Contains(err.Error(), s) {
			c.Errorf("%s: the error quotes a credential value: %v", what, err)
			return
		}
	}
}

// poll polls the channel once; its error is checked for credentials.
func (c *C) poll() (connectors.PollResult, error) {
	c.Helper()
	ctx, cancel := c.ctx(2 * time.Minute)
	defer cancel()
	res, err := c.rt.Poll(ctx, c.ch)
	c.checkErr("poll", err)
	return res, err
}

// session is a session of the channel.
func (c *C) session() *connectors.Session {
	c.Helper()
	ctx, cancel := c.ctx(30 * time.Second)
	defer cancel()
	s, err := c.rt.Session(ctx, c.ch)
	if err != nil {
		c.Fatalf("session: %v", err)
	}
	return s
}

// place places n orders of the channel as a buyer would, and returns their ids.
func (c *C) place(n int) []string {
	c.Helper()
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	ids := make([]string, n)
	for i := range ids {
		o, err := sandbox.PlaceOrder(ctx, c.sb.URL, sandbox.OrderRequest{ChannelUUID: c.ch.UUID, SKU: c.sb.SKU})
		if err != nil {
			c.Fatalf("place an order: %v", err)
		}
		ids[i] = o.ID
	}
	return ids
}

// take returns the documents sent to the inbox since the last take by display ref,
// failing the case for any that names another channel.
func (c *C) take() map[string][]map[string]any {
	c.Helper()
	got := c.inbox.TakeOrders()
	for ref, docs := range got {
		for _, d := range docs {
			if d["channel_uuid"] != c.ch.UUID {
				c.Errorf("order %s: document names channel %v, want %s", ref, d["channel_uuid"], c.ch.UUID)
			}
		}
	}
	return got
}

// Faults is the suite's transport: it sends requests to the sandbox, but answers the next
// request that a fault matches with the fault's answer instead.
type Faults struct {
	mu     sync.Mutex
	faults []fault
}

// fault answers the requests match matches, times times (-1: every one).
type fault struct {
	match  func(*http.Request) bool
	times  int
	answer func(*http.Request) (*http.Response, error)
}

// add injects a fault.
func (f *Faults) add(match func(*http.Request) bool, times int, answer func(*http.Request) (*http.Response, error)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, fault{match, times, answer})
}

// clear removes every fault.
func (f *Faults) clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = nil
}

// RoundTrip implements http.RoundTripper.
func (f *Faults) RoundTrip(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	var answer func(*http.Request) (*http.Response, error)
	for i := range f.faults {
		if x := &f.faults[i]; x.times != 0 && x.match(r) {
			if x.times > 0 {
				x.times--
			}
			answer = x.answer
			break
		}
	}
	f.mu.Unlock()
	if answer != nil {
		return answer(r)
	}
	return http.DefaultTransport.RoundTrip(r)
}
