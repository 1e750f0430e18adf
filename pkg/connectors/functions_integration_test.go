package connectors_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/secrets"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/wire"
)

// directory stands for the channels domain (pkg/app wires its own once it answers these):
// the connected channels of every test of the binary, by account and uuid. It is the
// runtime's Channels, the scheduler's Directory, the Disconnector and push's Router.
type directory struct {
	mu           sync.Mutex
	channels     map[[2]string]connectors.Channel
	disconnected []*connectors.Disconnected
}

func (d *directory) add(ch connectors.Channel) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.channels[[2]string{ch.Account, ch.UUID}] = ch
}

func (d *directory) Channel(_ context.Context, account, uuid string) (connectors.Channel, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	ch, ok := d.channels[[2]string{account, uuid}]
	if !ok {
		return connectors.Channel{}, errs.NotFound("Channel not found")
	}
	return ch, nil
}

func (d *directory) Connected(context.Context) ([]connectors.ChannelRef, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []connectors.ChannelRef
	for k := range d.channels {
		out = append(out, connectors.ChannelRef{Account: k[0], UUID: k[1]})
	}
	return out, nil
}

func (d *directory) Disconnect(_ context.Context, dc *connectors.Disconnected) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.disconnected = append(d.disconnected, dc)
	return nil
}

func (d *directory) Route(ctx context.Context, account, channel string) (push.Route, error) {
	if _, err := d.Channel(ctx, account, channel); err != nil {
		return push.ToOutbox, nil
	}
	return push.ToConnector, nil
}

// recorder is the real inbox queue (connectors.QueueInbox), recording what went through
// it in rec.
type recorder struct {
	connectors.QueueInbox
	rec *connectorstest.Inbox
}

func (r recorder) SendOrders(ctx context.Context, account string, docs []json.RawMessage) error {
	if err := r.QueueInbox.SendOrders(ctx, account, docs); err != nil {
		return err
	}
	return r.rec.SendOrders(ctx, account, docs)
}

func (r recorder) SendResults(ctx context.Context, account string, results []json.RawMessage) error {
	if err := r.QueueInbox.SendResults(ctx, account, results); err != nil {
		return err
	}
	return r.rec.SendResults(ctx, account, results)
}

// ordersSent is how many times the order ref was sent.
func (r recorder) ordersSent(ref string) int { return r.rec.Counts()[ref] }

// resultsOf are the results sent for the channel.
func (r recorder) resultsOf(channel string) []map[string]any {
	var out []map[string]any
	for _, m := range r.rec.Results() {
		if m["channel_uuid"] == channel {
			out = append(out, m)
		}
	}
	return out
}

// stack is the binary's connector functions on the local stack, over the shared directory.
type stack struct {
	env   *testenv.Env
	dir   *directory
	inbox recorder
	svc   connectors.Service
}

var (
	stackOnce sync.Once
	shared    *stack
)

// functions serves connector-push and connector-poll on the stack with the test's
// directory, once per binary.
func functions(t *testing.T) *stack {
	env := testenv.Get(t)
	stackOnce.Do(func() {
		registerOnce.Do(func() { connectors.Register(sandbox.GenericConnector) })
		s := &stack{env: env, dir: &directory{channels: map[[2]string]connectors.Channel{}}}
		s.svc = env.Deps.Connectors()
		s.inbox = recorder{QueueInbox: s.svc.Runtime.Inbox.(connectors.QueueInbox), rec: &connectorstest.Inbox{}}
		s.svc.Runtime.Inbox, s.svc.Runtime.Channels = s.inbox, s.dir
		s.svc.Runtime.MaxWait = 10 * time.Second
		s.svc.Directory, s.svc.Disconnector = s.dir, s.dir
		h := connectors.Handlers{Service: s.svc}
		env.ServeQueueFunction("connector-push", h.Consume)
		env.ServeQueueFunction("connector-poll", h.ConsumePolls)
		shared = s
	})
	return shared
}

// connect opens a seller on a new generic sandbox and connects a channel of a new account
// to it (credentials sealed under the stack's KMS key).
func (s *stack) connect(t *testing.T) (*sandbox.Generic, connectors.Channel) {
	sb, err := sandbox.NewGeneric()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.AddSeller("client-1", "s3cr3t-value", "refresh-value")
	acct := s.env.NewAccount(t, testenv.AccountOptions{})
	ch := connectors.Channel{Account: acct.ID, UUID: store.NewID(), Connector: "generic",
		Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + "/oauth/token"}}
	plain, _ := json.Marshal(map[string]string{"client_id": "client-1", "client_secret": "s3cr3t-value", "refresh_token": "refresh-value"})
	sealed, err := s.env.Deps.Secrets(secrets.Credentials).Seal(context.Background(), acct.ID, ch.UUID, plain)
	if err != nil {
		t.Fatal(err)
	}
	ch.Credentials = sealed
	s.dir.add(ch)
	return sb, ch
}

// pushes sends n listing.quantity messages of ch (SKU-i, quantity i) through push.Queues
// with the directory as its Router.
func (s *stack) pushes(t *testing.T, ch connectors.Channel, n int) {
	q := push.Queues{
		Outbox:     queue.Sender{Client: s.env.Deps.SQS, URL: s.env.Config.ChannelOutboxQueueURL, Plain: true},
		Connectors: queue.Sender{Client: s.env.Deps.SQS, URL: s.env.Config.ConnectorQueueURL, Plain: true},
		Router:     s.dir,
	}
	for i := range n {
		sku := fmt.Sprintf("SKU-%d", i)
		g := queue.Group("lst", ch.Account, ch.UUID, sku)
		err := q.Send(context.Background(), ch.Account, g, g+"-1", wire.QuantityMessage{
			Header:     wire.Header{Type: wire.TypeListingQuantity, AccountID: ch.Account, ChannelUUID: ch.UUID, ChannelType: "Generic"},
			ChannelSKU: sku, SKU: &sku, Quantity: int64(i), Version: 1, At: "2026-11-24T12:00:00Z",
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// waitFor polls cond every 100 ms for at most d; what says what it waited for, and what it
// saw, when it times out.
func waitFor(t *testing.T, d time.Duration, cond func() bool, what func() string) {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out after %v waiting for %s", d, what())
}

// TestConnectorPush: outbox messages of a connected channel go to the connector queue, and
// connector-push sets the sandbox's quantities and answers listing.result on the inbox;
// 200 of them, at the published 1 call/s with 429s on the way, end ok with no call over
// the limit and no failed result.
func TestConnectorPush(t *testing.T) {
	t.Parallel()
	s := functions(t)
	tests := []struct {
		name     string
		n        int
		throttle int // 429s with Retry-After: 2 the sandbox answers first
	}{
		{"one push", 1, 0},
		{"200 pushes within the limits", 200, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sb, ch := s.connect(t)
			sb.SetLimit(sandbox.OpInventory, 1, 1)
			sb.ThrottleNext(sandbox.OpInventory, tt.throttle, 2*time.Second)
			s.pushes(t, ch, tt.n)
			// A batch whose receive's answer is lost comes back within 75 s (the local
			// pollers' receive visibility), not the queue's 360 s.
			waitFor(t, 150*time.Second, func() bool { return len(s.inbox.resultsOf(ch.UUID)) >= tt.n }, func() string {
				return fmt.Sprintf("%d results (%d so far, after %d calls of the sandbox)", tt.n, len(s.inbox.resultsOf(ch.UUID)), sb.Calls(sandbox.OpInventory))
			})
			for i := range tt.n {
				if got, ok := sb.Quantity("client-1", fmt.Sprintf("SKU-%d", i)); !ok || got != int64(i) {
					t.Errorf("SKU-%d shows %d (%v), want %d", i, got, ok, i)
				}
			}
			results := s.inbox.resultsOf(ch.UUID)
			for _, r := range results {
				if got, want := r["type"], wire.TypeListingResult; got != want || r["ok"] != true {
					t.Errorf("result %v, want an ok %s", r, want)
				}
			}
			if got, want := len(results), tt.n; got != want {
				t.Errorf("%d results, want %d", got, want)
			}
			if got := sb.Over(sandbox.OpInventory); got != 0 {
				t.Errorf("%d calls over the limit", got)
			}
		})
	}
}

// TestConnectorPoll: a schedule tick sends one poll per connected channel, connector-poll
// imports the orders through the inbox once each, and a failed poll resumes from the same
// cursor when its message comes back.
func TestConnectorPoll(t *testing.T) {
	t.Parallel()
	s := functions(t)
	tests := []struct {
		name  string
		fails int // the sandbox's order reads that fail first
	}{
		{"a tick polls each channel once", 0},
		{"a failed poll resumes", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			own := &directory{channels: map[[2]string]connectors.Channel{}}
			var sbs []*sandbox.Generic
			var refs []string
			for c := range 2 {
				sb, ch := s.connect(t)
				own.add(ch)
				sbs = append(sbs, sb)
				for i := range 60 {
					ref := fmt.Sprintf("%s-%d-%d", ch.UUID, c, i)
					refs = append(refs, ref)
					doc, _ := json.Marshal(map[string]any{"channel_uuid": ch.UUID, "display_ref": ref})
					sb.PutOrder("client-1", sandbox.GenericOrder{ID: ref, UpdatedAt: time.Now().Add(-time.Hour), Document: doc})
				}
				sb.FailNext(sandbox.OpOrders, tt.fails)
			}
			tick := s.svc
			tick.Directory = own
			n, err := tick.Schedule(context.Background(), time.Now())
			if err != nil || n != 2 {
				t.Fatalf("Schedule = %d, %v; want 2 channels", n, err)
			}
			if n, err := tick.Schedule(context.Background(), time.Now()); err != nil || n != 2 {
				t.Fatalf("the same slot again: %d, %v", n, err)
			}
			waitFor(t, 60*time.Second, func() bool {
				for _, ref := range refs {
					if s.inbox.ordersSent(ref) == 0 {
						return false
					}
				}
				return true
			}, func() string {
				n := 0
				for _, ref := range refs {
					n += min(s.inbox.ordersSent(ref), 1)
				}
				return fmt.Sprintf("the %d orders (%d sent so far)", len(refs), n)
			})
			s.env.Drain(t)
			for _, ref := range refs {
				if got := s.inbox.ordersSent(ref); got != 1 {
					t.Errorf("order %s sent %d times, want 1", ref, got)
				}
			}
			for i, sb := range sbs {
				// Two pages of 50, plus the failed reads; the tick sent twice polls once.
				if got, want := sb.Calls(sandbox.OpOrders), 2+tt.fails; got != want {
					t.Errorf("channel %d: %d order reads, want %d", i, got, want)
				}
			}
		})
	}
}
