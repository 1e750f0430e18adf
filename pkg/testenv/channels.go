package testenv

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/connectorsim"
	"github.com/multisell/multisell/pkg/store"
)

// channelSync is the harness's side of channel sync: the connector sim that
// answers the outbox for every test, the accounts whose pushes it refuses,
// and the faults injected into the channel-sync function.
type channelSync struct {
	sim     *connectorsim.Sim
	refused sync.Map // account id -> true

	mu        sync.Mutex
	faults    map[int]func(events.DynamoDBEventRecord) bool
	observers map[int]func(SyncBatch)
	nextID    int
}

// SyncBatch is one invocation of the channel-sync function, as ObserveSync
// reports it: its records, its DynamoDB cost and when it ran.
type SyncBatch struct {
	Records []events.DynamoDBEventRecord
	Calls   int
	// Ops are the calls by operation name (GetItem, Query, ...).
	Ops        map[string]int
	RCU, WCU   float64
	Start, End time.Time
}

// startSim runs the connector sim on the stack's channel queues until ctx
// ends, with its channels in a temporary folder.
func (e *Env) startSim(ctx context.Context, log *slog.Logger) error {
	dir, err := os.MkdirTemp("", "multisell-sim-")
	if err != nil {
		return err
	}
	out, okOut := e.Stack.Queues[connectorsim.OutboxQueue]
	in, okIn := e.Stack.Queues[connectorsim.InboxQueue]
	if !okOut || !okIn {
		return errors.New("testenv: template.yaml has no channel queues")
	}
	e.sync.sim = &connectorsim.Sim{SQS: e.Stack.SQS, OutboxURL: out.URL, InboxURL: in.URL, Dir: dir, Logger: log,
		Refuse: func(account string) bool { _, ok := e.sync.refused.Load(account); return ok }}
	go func() {
		if err := e.sync.sim.Run(ctx); err != nil {
			log.Error("testenv: connector sim", "error", err.Error())
		}
		_ = os.RemoveAll(dir)
	}()
	return nil
}

// SimListing is the listing as the connector sim's channel shows it.
func (e *Env) SimListing(account, channel, channelSKU string) (connectorsim.Listing, bool) {
	ch, err := connectorsim.LoadChannel(e.sync.sim.Dir, account, channel)
	if err != nil || ch == nil {
		return connectorsim.Listing{}, false
	}
	l, ok := ch.Listings[channelSKU]
	return l, ok
}

// WaitFor polls cond every 100 ms for up to 45 s (what the stream, the
// outbox, the connector sim and the inbox take between them under load),
// and fails the test when it never holds.
func WaitFor(t testing.TB, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

// SimShipments are the shipments' tracking the connector sim's channel
// shows, by shipment id (empty when none was posted).
func (e *Env) SimShipments(account, channel string) map[string]connectorsim.Shipment {
	ch, err := connectorsim.LoadChannel(e.sync.sim.Dir, account, channel)
	if err != nil || ch == nil {
		return map[string]connectorsim.Shipment{}
	}
	return ch.Shipments
}

// SimShipment is the tracking the connector sim's channel shows for the
// shipment.
func (e *Env) SimShipment(account, channel, shipmentID string) (connectorsim.Shipment, bool) {
	s, ok := e.SimShipments(account, channel)[shipmentID]
	return s, ok
}

// SimQuantity is the quantity the connector sim's channel shows for the
// listing.
func (e *Env) SimQuantity(account, channel, channelSKU string) (int64, bool) {
	l, ok := e.SimListing(account, channel, channelSKU)
	return l.Quantity, ok
}

// RefusePushes makes the connector sim fail every update of the account
// until Accept (or the test's end).
func (e *Env) RefusePushes(t testing.TB, account string) {
	e.sync.refused.Store(account, true)
	t.Cleanup(func() { e.AcceptPushes(account) })
}

// AcceptPushes ends RefusePushes.
func (e *Env) AcceptPushes(account string) { e.sync.refused.Delete(account) }

// ObserveSync calls observe after every invocation of the channel-sync
// function until the test or benchmark ends.
func (e *Env) ObserveSync(tb testing.TB, observe func(SyncBatch)) {
	hook(tb, &e.sync, &e.sync.observers, observe)
}

// hook adds f to the hooks m until tb ends.
func hook[F any](tb testing.TB, cs *channelSync, m *map[int]F, f F) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if *m == nil {
		*m = map[int]F{}
	}
	id := cs.nextID
	cs.nextID++
	(*m)[id] = f
	tb.Cleanup(func() {
		cs.mu.Lock()
		defer cs.mu.Unlock()
		delete(*m, id)
	})
}

// observe reports a batch to the observers.
func (e *Env) observe(b SyncBatch) {
	e.sync.mu.Lock()
	defer e.sync.mu.Unlock()
	for _, o := range e.sync.observers {
		o(b)
	}
}

// FailStream makes the channel-sync function fail every batch holding a
// record for which fail is true, until the test ends: the event source
// mapping retries, bisects, and sends what keeps failing to its on-failure
// queue. Batches without such a record run as usual.
func (e *Env) FailStream(t testing.TB, fail func(events.DynamoDBEventRecord) bool) {
	hook(t, &e.sync, &e.sync.faults, fail)
}

// faulty reports whether a fault matches a record of the batch.
func (e *Env) faulty(ev events.DynamoDBEvent) bool {
	e.sync.mu.Lock()
	defer e.sync.mu.Unlock()
	for _, f := range e.sync.faults {
		for _, r := range ev.Records {
			if f(r) {
				return true
			}
		}
	}
	return false
}

// errInjected is the failure FailStream injects.
var errInjected = errors.New("testenv: injected channel-sync failure")

// handler is the pollers' handler lookup: the application's, with the
// channel-sync function wrapped for FailStream.
func (e *Env) handler(name string) (any, error) {
	h, err := e.Handler(name)
	if err != nil {
		return h, err
	}
	if name != "channel-sync" {
		return e.fns.wrap(name, h), nil
	}
	run := h.(app.StreamHandler)
	return app.StreamHandler(func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
		if e.faulty(ev) {
			return events.DynamoDBEventResponse{}, errInjected
		}
		ctx, meter := store.WithMeter(ctx)
		start := time.Now()
		resp, err := run(ctx, ev)
		e.observe(SyncBatch{Records: ev.Records, Calls: meter.Calls(), Ops: meter.Ops(), RCU: meter.ReadUnits(), WCU: meter.WriteUnits(), Start: start, End: time.Now()})
		return resp, err
	}), nil
}

// SyncCost is what a benchmark of channel sync measures: the channel-sync
// function's DynamoDB cost over the batches that concern it, the outbox
// messages, and latencies by name. It is not safe for concurrent use.
type SyncCost struct {
	Calls    int
	RCU, WCU float64
	Messages int
	latency  map[string][]float64
}

// Add adds one batch's DynamoDB cost.
func (c *SyncCost) Add(b SyncBatch) {
	c.Calls, c.RCU, c.WCU = c.Calls+b.Calls, c.RCU+b.RCU, c.WCU+b.WCU
}

// Observe records one latency of the named kind.
func (c *SyncCost) Observe(name string, d time.Duration) {
	if c.latency == nil {
		c.latency = map[string][]float64{}
	}
	c.latency[name] = append(c.latency[name], float64(d.Microseconds())/1000)
}

// Report reports the totals per operation of n (ddb-calls/op, ddb-rcu/op,
// ddb-wcu/op, msgs/op) and each latency's p50 and p99 in milliseconds
// (ms-<name>-p50, ms-<name>-p99).
func (c *SyncCost) Report(b *testing.B, n int) {
	b.ReportMetric(float64(c.Calls)/float64(n), "ddb-calls/op")
	b.ReportMetric(c.RCU/float64(n), "ddb-rcu/op")
	b.ReportMetric(c.WCU/float64(n), "ddb-wcu/op")
	b.ReportMetric(float64(c.Messages)/float64(n), "msgs/op")
	for _, name := range slices.Sorted(maps.Keys(c.latency)) {
		b.ReportMetric(Percentile(c.latency[name], 50), "ms-"+name+"-p50")
		b.ReportMetric(Percentile(c.latency[name], 99), "ms-"+name+"-p99")
	}
}
