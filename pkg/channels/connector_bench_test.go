package channels_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go/middleware"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
	"github.com/multisell/multisell/pkg/wire"
)

// benchConnector is the generic marketplace's connector under limits no benchmark reaches
// (the published ones, 1 call per second, would make the time per run the bucket's wait; a
// wait costs nothing more, the take is the same conditional write).
var benchConnector = &sandbox.Connector{Name: "generic-bench", ChannelType: "Generic Bench", Limits: map[string]connectors.Limit{
	sandbox.OpShop: {Rate: 1000, Burst: 100}, sandbox.OpOrders: {Rate: 1000, Burst: 100},
	sandbox.OpInventory: {Rate: 1000, Burst: 100}, sandbox.OpFulfillments: {Rate: 1000, Burst: 100},
}}

// benchRegister registers benchConnector once per test binary.
var benchRegister sync.Once

// BenchmarkConnector measures the connector runtime's cost, on the local stack, through the
// connector functions' service as pkg/app wires it (DynamoDB and SQS real, KMS local) and
// channels connected through POST /v1/channels to a generic sandbox of the benchmark's own:
// per poll of one connected channel (Service.PollChannel, the connector-poll function) with
// no new order and with 100 new orders, and per batch of 10 listing.quantity messages
// through the connector-push consumer (Handlers.Consume), also per message. It reports the
// calls to the channel (ch-calls, and per operation ch-<op>), DynamoDB's calls and capacity
// units (ddb-calls, ddb-rcu, ddb-wcu), the SQS messages sent (sqs-sends) and the secrets
// opened or sealed, one KMS call each (kms-calls). docs/connectors.md#cost has the figures.
func BenchmarkConnector(b *testing.B) {
	w := newConnectorBench(b)
	b.Run("poll, no new orders", func(b *testing.B) {
		ref := w.connect(b)
		w.mustPoll(b, ref, 0) // a warm instance: the access token cached, its buckets seen
		var cost connectorCost
		for b.Loop() {
			w.measure(b, &cost, func(ctx context.Context) error { return w.poll(ctx, ref, 0) })
		}
		cost.report(b, 1, "op")
	})
	b.Run("poll, 100 new orders", func(b *testing.B) {
		var cost connectorCost
		for b.Loop() {
			b.StopTimer()
			ref := w.connect(b)
			w.mustPoll(b, ref, 0)
			w.placeOrders(b, ref, 100)
			b.StartTimer()
			w.measure(b, &cost, func(ctx context.Context) error { return w.poll(ctx, ref, 100) })
			b.StopTimer()
			w.f.Env.Drain(b) // the inbox imports the orders before the next run
			b.StartTimer()
		}
		cost.report(b, 1, "op")
	})
	b.Run("push, 10 listing.quantity", func(b *testing.B) {
		ev := w.quantities(b, w.connect(b), 10)
		h := connectors.Handlers{Service: w.svc}
		consume := func(ctx context.Context) error {
			resp, err := h.Consume(ctx, ev)
			if err == nil && len(resp.BatchItemFailures) > 0 {
				err = fmt.Errorf("push: %d of %d messages failed", len(resp.BatchItemFailures), len(ev.Records))
			}
			return err
		}
		if err := consume(context.Background()); err != nil { // a warm instance
			b.Fatal(err)
		}
		var cost connectorCost
		for b.Loop() {
			w.measure(b, &cost, consume)
		}
		cost.report(b, 1, "op")
		cost.report(b, len(ev.Records), "msg")
	})
}

// connectorBench is the benchmarks' account, sandbox and connector service, and the calls
// the service makes outside DynamoDB.
type connectorBench struct {
	f       *orderstest.Fixture
	sb      *sandbox.Generic
	svc     connectors.Service
	calls   *tally
	sellers int
}

// newConnectorBench starts a generic sandbox and builds the connector service over the
// stack's clients, its channel calls, SQS calls and secrets counted.
func newConnectorBench(b *testing.B) *connectorBench {
	benchRegister.Do(func() { connectors.Register(benchConnector) })
	f := orderstest.New(b)
	sb, err := sandbox.NewGeneric()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sb.Close() })
	calls := &tally{n: map[string]int{}}
	q := sqs.New(f.Env.Deps.SQS.Options(), func(o *sqs.Options) {
		o.APIOptions = append(slices.Clip(o.APIOptions), calls.countSQS)
	})
	d := &app.Deps{Config: f.Env.Deps.Config, Table: f.Env.Deps.Table, SQS: q, Keys: f.Env.Deps.Keys, WebhookSender: f.Env.Deps.WebhookSender}
	svc := d.Connectors()
	svc.Runtime.Sealer = countedSealer{svc.Runtime.Sealer, calls}
	svc.Runtime.Credentials = countedSealer{svc.Runtime.Credentials, calls}
	svc.Runtime.HTTP = &http.Client{Timeout: 30 * time.Second, Transport: countedTransport{http.DefaultTransport, calls}}
	return &connectorBench{f: f, sb: sb, svc: svc, calls: calls}
}

// sellerOf is the sandbox seller of the n-th channel connected.
func sellerOf(n int) string { return fmt.Sprintf("bench-%d", n) }

// connect opens a new seller's shop on the sandbox and connects it through POST
// /v1/channels, then lets the stack settle.
func (w *connectorBench) connect(b *testing.B) connectors.ChannelRef {
	b.Helper()
	w.sellers++
	seller := sellerOf(w.sellers)
	w.sb.AddSeller(seller, clientSecret, refreshToken)
	r := w.f.C.Do(http.MethodPost, "/channels", connectBody(w.sb, benchConnector.Name, creds(map[string]any{"client_id": seller})))
	if r.Status != http.StatusCreated {
		b.Fatalf("connect: %d %s", r.Status, r)
	}
	var made envelope
	if err := json.Unmarshal(r.Body, &made); err != nil {
		b.Fatal(err)
	}
	w.f.Env.Drain(b)
	return connectors.ChannelRef{Account: w.f.Acct.ID, UUID: made.Channel.UUID}
}

// errBusy is a poll that found its channel's lease held (the stack's own schedule polls
// every connected channel): it is measured again.
var errBusy = errors.New("the channel's poll lease is held")

// poll polls the channel once, which must import want orders.
func (w *connectorBench) poll(ctx context.Context, ref connectors.ChannelRef, want int) error {
	res, err := w.svc.PollChannel(ctx, ref)
	switch {
	case err != nil:
		return err
	case res.Busy:
		return errBusy
	case res.Orders != want:
		return fmt.Errorf("poll: %d orders, want %d", res.Orders, want)
	}
	return nil
}

// mustPoll polls the channel once, unmeasured.
func (w *connectorBench) mustPoll(b *testing.B, ref connectors.ChannelRef, want int) {
	b.Helper()
	w.measure(b, nil, func(ctx context.Context) error { return w.poll(ctx, ref, want) })
}

// placeOrders places n orders of a new product on the shop of the channel connected last,
// changed a minute ago.
func (w *connectorBench) placeOrders(b *testing.B, ref connectors.ChannelRef, n int) {
	b.Helper()
	sku := fmt.Sprintf("BENCH-O%d", w.sellers)
	w.f.Product(sku)
	at := time.Now().UTC().Add(-time.Minute)
	for i := range n {
		id := fmt.Sprintf("B%d-%03d", w.sellers, i)
		doc, err := json.Marshal(map[string]any{"channel_uuid": ref.UUID, "display_ref": id,
			"ordered_at": at.Format(time.RFC3339), "items": []any{orderstest.Line("L1", sku, 1)}})
		if err != nil {
			b.Fatal(err)
		}
		w.sb.PutOrder(sellerOf(w.sellers), sandbox.GenericOrder{ID: id, UpdatedAt: at.Add(time.Duration(i) * time.Millisecond), Document: doc})
	}
}

// quantities links n listings of new products to the channel, lets the stack push and
// confirm them, and returns the connector queue's batch that pushes them again: their
// listing.quantity messages at the stored version, as channel sync wrote them.
func (w *connectorBench) quantities(b *testing.B, ref connectors.ChannelRef, n int) events.SQSEvent {
	b.Helper()
	for i := range n {
		sku := fmt.Sprintf("BENCH-P%02d", i)
		w.f.Product(sku)
		body := map[string]any{"listing": map[string]any{"channel_uuid": ref.UUID, "channel_sku": sku, "sku": sku}}
		if r := w.f.C.Do(http.MethodPut, "/listings", body); r.Status != http.StatusOK {
			b.Fatalf("link %s: %d %s", sku, r.Status, r)
		}
	}
	w.f.Env.Drain(b)
	items, err := w.f.Env.Deps.Table.QueryAll(context.Background(), store.PK(ref.Account, "LST"))
	if err != nil {
		b.Fatal(err)
	}
	var stored []struct {
		ChannelUUID string  `dynamodbav:"channel_uuid"`
		ChannelSKU  string  `dynamodbav:"channel_sku"`
		ChannelType string  `dynamodbav:"channel_type"`
		SKU         *string `dynamodbav:"sku"`
		Quantity    *int64  `dynamodbav:"quantity"`
		Version     int64   `dynamodbav:"version"`
		QuantityAt  string  `dynamodbav:"quantity_at"`
		SyncStatus  string  `dynamodbav:"sync_status"`
	}
	if err := attributevalue.UnmarshalListOfMaps(items, &stored); err != nil {
		b.Fatal(err)
	}
	acct := ref.Account
	var ev events.SQSEvent
	for _, l := range stored {
		if l.ChannelUUID != ref.UUID {
			continue
		}
		if l.SyncStatus != listings.StatusSynced || l.Quantity == nil {
			b.Fatalf("listing %s: %s, quantity %v; want synced with a quantity", l.ChannelSKU, l.SyncStatus, l.Quantity)
		}
		m := wire.QuantityMessage{Header: wire.Header{Type: wire.TypeListingQuantity, AccountID: acct, ChannelUUID: ref.UUID, ChannelType: l.ChannelType},
			ChannelSKU: l.ChannelSKU, SKU: l.SKU, Quantity: *l.Quantity, Version: l.Version, At: l.QuantityAt}
		body, err := json.Marshal(m)
		if err != nil {
			b.Fatal(err)
		}
		ev.Records = append(ev.Records, events.SQSMessage{MessageId: "m-" + l.ChannelSKU, Body: string(body),
			MessageAttributes: map[string]events.SQSMessageAttribute{queue.AccountAttribute: {DataType: "String", StringValue: &acct}}})
	}
	if len(ev.Records) != n {
		b.Fatalf("%d listings on the channel, want %d", len(ev.Records), n)
	}
	return ev
}

// measure runs run once, adding its cost to cost (nil: not measured). A run whose poll found
// the lease held (errBusy) is run again.
func (w *connectorBench) measure(b *testing.B, cost *connectorCost, run func(context.Context) error) {
	b.Helper()
	for attempt := 0; ; attempt++ {
		before := w.calls.snapshot()
		ctx, meter := store.WithMeter(context.Background())
		err := run(ctx)
		if errors.Is(err, errBusy) && attempt < 10 {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if err != nil {
			b.Fatal(err)
		}
		if cost != nil {
			cost.add(meter, w.calls.since(before))
		}
		return
	}
}

// connectorCost sums the cost of the measured runs.
type connectorCost struct {
	runs     int
	ddbCalls int
	rcu, wcu float64
	calls    map[string]int
}

// add adds one run: its DynamoDB meter and its other calls (the channel's, SQS sends and KMS
// calls always reported, other names when counted).
func (c *connectorCost) add(m *store.Meter, calls map[string]int) {
	if c.calls == nil {
		c.calls = map[string]int{"ch-calls": 0, "sqs-sends": 0, "kms-calls": 0}
	}
	c.runs++
	c.ddbCalls, c.rcu, c.wcu = c.ddbCalls+m.Calls(), c.rcu+m.ReadUnits(), c.wcu+m.WriteUnits()
	for k, v := range calls {
		c.calls[k] += v
	}
}

// report reports the averages per run divided by per, in units "<metric>/<unit>".
func (c *connectorCost) report(b *testing.B, per int, unit string) {
	n := float64(c.runs * per)
	b.ReportMetric(float64(c.ddbCalls)/n, "ddb-calls/"+unit)
	b.ReportMetric(c.rcu/n, "ddb-rcu/"+unit)
	b.ReportMetric(c.wcu/n, "ddb-wcu/"+unit)
	for _, k := range slices.Sorted(maps.Keys(c.calls)) {
		b.ReportMetric(float64(c.calls[k])/n, k+"/"+unit)
	}
}

// tally counts calls by metric name; it is safe for concurrent use.
type tally struct {
	mu sync.Mutex
	n  map[string]int
}

func (t *tally) add(names ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range names {
		t.n[k]++
	}
}

func (t *tally) snapshot() map[string]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return maps.Clone(t.n)
}

// since is the calls counted since before (a snapshot), the names counted none left out.
func (t *tally) since(before map[string]int) map[string]int {
	out := t.snapshot()
	for k, v := range before {
		if out[k] -= v; out[k] == 0 {
			delete(out, k)
		}
	}
	return out
}

// countSQS is an SQS client option counting its calls: sqs-sends (SendMessage), else
// sqs-<operation>.
func (t *tally) countSQS(s *middleware.Stack) error {
	return s.Initialize.Add(middleware.InitializeMiddlewareFunc("bench-count", func(ctx context.Context,
		in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if op := awsmiddleware.GetOperationName(ctx); op == "SendMessage" {
			t.add("sqs-sends")
		} else {
			t.add("sqs-" + op)
		}
		return next.HandleInitialize(ctx, in)
	}), middleware.After)
}

// countedSealer counts each Seal and Open (one KMS call each, GenerateDataKey or Decrypt).
type countedSealer struct {
	connectors.Sealer
	calls *tally
}

func (s countedSealer) Seal(ctx context.Context, account, channel string, plaintext []byte) ([]byte, error) {
	s.calls.add("kms-calls")
	return s.Sealer.Seal(ctx, account, channel, plaintext)
}

func (s countedSealer) Open(ctx context.Context, account, channel string, sealed []byte) ([]byte, error) {
	s.calls.add("kms-calls")
	return s.Sealer.Open(ctx, account, channel, sealed)
}

// countedTransport counts the calls to the channel, in all (ch-calls) and per operation of
// the generic marketplace (ch-<op>). It counts on the runtime's side because the sandbox's
// own counters also count the polls of the stack's schedule.
type countedTransport struct {
	http.RoundTripper
	calls *tally
}

func (t countedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.calls.add("ch-calls", "ch-"+genericOp(r))
	return t.RoundTripper.RoundTrip(r)
}

// genericOp is the generic marketplace's operation of a request (its API is in
// pkg/local/sandbox/generic.go).
func genericOp(r *http.Request) string {
	switch p := r.URL.Path; {
	case p == "/oauth/token":
		return sandbox.OpToken
	case p == "/v1/shop":
		return sandbox.OpShop
	case p == "/v1/orders":
		return sandbox.OpOrders
	case p == "/v1/inventory":
		return sandbox.OpInventory
	case strings.HasSuffix(p, "/fulfillments"):
		return sandbox.OpFulfillments
	}
	return "other"
}
