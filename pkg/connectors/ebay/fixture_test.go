package ebay_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/errs"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

func TestMain(m *testing.M) {
	connectors.Register(ebay.Connector)
	testenv.Main(m)
}

// sealer seals with AES-GCM under a test key, as pkg/secrets does under KMS.
type sealer struct{ aead cipher.AEAD }

func newSealer(t *testing.T) sealer {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	block, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	return sealer{aead}
}

func (s sealer) Seal(_ context.Context, account, channel string, plain []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return s.aead.Seal(nonce, nonce, plain, []byte(account+"/"+channel)), nil
}

func (s sealer) Open(_ context.Context, account, channel string, sealed []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed too short")
	}
	return s.aead.Open(nil, sealed[:n], sealed[n:], []byte(account+"/"+channel))
}

// inbox records what the runtime sends; fail, when set, decides whether the n-th send of
// orders fails.
type inbox struct {
	mu      sync.Mutex
	sends   int
	fail    func(n int) bool
	docs    map[string][]map[string]any // display_ref -> documents sent
	results []map[string]any
}

func (in *inbox) SendOrders(_ context.Context, _ string, docs []json.RawMessage) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.sends++
	if in.fail != nil && in.fail(in.sends) {
		return errors.New("inbox unavailable")
	}
	if in.docs == nil {
		in.docs = map[string][]map[string]any{}
	}
	for _, d := range docs {
		var m map[string]any
		_ = json.Unmarshal(d, &m)
		ref, _ := m["display_ref"].(string)
		in.docs[ref] = append(in.docs[ref], m)
	}
	return nil
}

func (in *inbox) SendResults(_ context.Context, _ string, results []json.RawMessage) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, r := range results {
		var m map[string]any
		_ = json.Unmarshal(r, &m)
		in.results = append(in.results, m)
	}
	return nil
}

// taken returns the documents sent so far and forgets them.
func (in *inbox) taken() map[string][]map[string]any {
	in.mu.Lock()
	defer in.mu.Unlock()
	d := in.docs
	in.docs = nil
	return d
}

// takenResults returns the results sent so far and forgets them.
func (in *inbox) takenResults() []map[string]any {
	in.mu.Lock()
	defer in.mu.Unlock()
	r := in.results
	in.results = nil
	return r
}

// channels is the one channel of a test.
type channels struct{ ch connectors.Channel }

func (c channels) Channel(_ context.Context, account, uuid string) (connectors.Channel, error) {
	if account != c.ch.Account || uuid != c.ch.UUID {
		return connectors.Channel{}, errs.NotFound("Channel not found")
	}
	return c.ch, nil
}

// exchange is one request to the sandbox and its answer, as the connector sent and got it.
type exchange struct {
	req    *http.Request
	body   []byte
	status int
	header http.Header
	answer []byte
}

// recorder is a transport that keeps every exchange.
type recorder struct {
	mu   sync.Mutex
	seen []exchange
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	answer, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(answer))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, exchange{req: req.Clone(context.Background()), body: body, status: resp.StatusCode, header: resp.Header.Clone(), answer: answer})
	return resp, nil
}

// fixture is a test's account, a channel on an eBay sandbox seller, and what the runtime
// sent and got.
type fixture struct {
	env    *testenv.Env
	sb     *sbx.Sandbox
	ch     connectors.Channel
	inbox  *inbox
	sealer sealer
	rec    *recorder
	seller string
	// models: eBay's documents are loaded; every exchange is checked against them.
	models bool
}

const seller = "client-1"

// newFixture starts an eBay sandbox holding the connector's published limits, with one
// seller, and a channel of a new account on it.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	env := testenv.Get(t)
	sb, err := sbx.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.SetLimit(sbx.OpGetOrders, ebay.Limits[ebay.OpFulfillment].Rate, ebay.Limits[ebay.OpFulfillment].Burst)
	sb.SetLimit(sbx.OpFulfill, ebay.Limits[ebay.OpFulfillment].Rate, ebay.Limits[ebay.OpFulfillment].Burst)
	sb.SetLimit(sbx.OpBulkQuantity, ebay.Limits[ebay.OpInventory].Rate, ebay.Limits[ebay.OpInventory].Burst)
	sb.SetLimit(sbx.OpToken, ebay.Limits[ebay.OpToken].Rate, ebay.Limits[ebay.OpToken].Burst)
	sb.AddSeller(seller, "s3cr3t-value", "refresh-value", "EBAY_US")
	f := &fixture{env: env, sb: sb, inbox: &inbox{}, sealer: newSealer(t), rec: &recorder{}, seller: seller}
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f.ch = connectors.Channel{Account: acct.ID, UUID: store.NewID(), Connector: "ebay",
		Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + sbx.TokenPath}}
	plain, _ := json.Marshal(map[string]string{"client_id": seller, "client_secret": "s3cr3t-value",
		"refresh_token": "refresh-value", "marketplace_id": "EBAY_US"})
	f.ch.Credentials, _ = f.sealer.Seal(context.Background(), acct.ID, f.ch.UUID, plain)
	f.models = loadModels(t)
	t.Cleanup(func() { f.validate(t) })
	return f
}

// runtime is a new instance of the runtime.
func (f *fixture) runtime(maxWait time.Duration) *connectors.Runtime {
	return &connectors.Runtime{Table: f.env.Deps.Table, Sealer: f.sealer, Inbox: f.inbox,
		Channels: channels{f.ch}, Policy: webhookhttp.Policy{Local: true}, MaxWait: maxWait,
		Overlap: time.Second, HTTP: &http.Client{Transport: f.rec, Timeout: 30 * time.Second}}
}

// quantity is an outbox listing.quantity message of the fixture's channel.
func (f *fixture) quantity(sku string, q, version int64) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "listing.quantity", "account_id": f.ch.Account, "channel_uuid": f.ch.UUID,
		"channel_type": "eBay", "channel_sku": sku, "listing_ref": nil, "sku": sku, "quantity": q, "version": version})
	return connectors.Message{ID: fmt.Sprintf("%s-%d", sku, version), Body: string(b), Account: f.ch.Account}
}

// tracking is an outbox shipment.tracking message of the fixture's channel.
func (f *fixture) tracking(order, shipment, carrier string, items ...map[string]any) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "shipment.tracking", "account_id": f.ch.Account, "channel_uuid": f.ch.UUID,
		"channel_type": "eBay", "display_ref": order, "shipment_id": shipment, "carrier_name": carrier,
		"carrier_name_given": carrier, "tracking_number": "9400" + shipment, "tracking_url": nil, "shipping_method": nil,
		"items": items, "shipped_at": "2026-11-20T10:00:00Z"})
	return connectors.Message{ID: shipment, Body: string(b), Account: f.ch.Account}
}

// ctx is a test's bounded context.
func ctx(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}
