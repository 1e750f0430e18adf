package channels_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/secrets"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

// The generic sandbox seller's secrets: what must never appear in clear.
const (
	clientID     = "client-connect"
	clientSecret = "s3cr3t-Value-9f1c"
	refreshToken = "refresh-Value-77ab"
)

var (
	sandboxOnce sync.Once
	shared      *sandbox.Generic
)

// marketplace is the generic sandbox the tests connect to (started once, with one seller),
// and its connector registered.
func marketplace(t testing.TB) *sandbox.Generic {
	t.Helper()
	sandboxOnce.Do(func() {
		connectors.Register(sandbox.GenericConnector)
		sb, err := sandbox.NewGeneric()
		if err != nil {
			t.Fatal(err)
		}
		sb.AddSeller(clientID, clientSecret, refreshToken)
		shared = sb // serves until the test binary ends
	})
	if shared == nil {
		t.Fatal("the sandbox did not start")
	}
	return shared
}

// creds are the seller's credentials, with overrides.
func creds(over map[string]any) map[string]any {
	c := map[string]any{"client_id": clientID, "client_secret": clientSecret, "refresh_token": refreshToken}
	for k, v := range over {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

// connectBody is a POST /channels body on the sandbox.
func connectBody(sb *sandbox.Generic, typ string, credentials any) map[string]any {
	return map[string]any{"channel": map[string]any{"name": "My generic shop", "type": typ, "credentials": credentials,
		"endpoints": map[string]any{"api": sb.URL, "auth": sb.URL + "/oauth/token"}}}
}

// envelope is the body of a channel's answer.
type envelope struct {
	Channel channels.Channel `json:"channel"`
}

// rawItems reads every item of the account's partitions kinds, consistently.
func rawItems(t *testing.T, env *testenv.Env, account string, kinds ...string) []map[string]types.AttributeValue {
	t.Helper()
	var out []map[string]types.AttributeValue
	for _, k := range kinds {
		items, err := env.Deps.Table.QueryAll(context.Background(), store.PK(account, k))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, items...)
	}
	return out
}

// connectedRefs returns the connected index's channels of the account.
func connectedRefs(t *testing.T, svc channels.Service, account string) []string {
	t.Helper()
	var uuids []string
	err := svc.Connected(context.Background(), func(refs []channels.Ref) error {
		for _, r := range refs {
			if r.Account == account {
				uuids = append(uuids, r.UUID+"/"+r.Connector)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return uuids
}

// fixture is a test's stack, sandbox, fresh account and its client.
func fixture(t *testing.T) (*testenv.Env, *sandbox.Generic, testenv.Account, *testenv.Client) {
	t.Helper()
	env := testenv.Get(t)
	sb := marketplace(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	return env, sb, acct, env.Client(t, acct)
}

// connect connects a channel of c's account to the sandbox, which must answer 201.
func connect(t *testing.T, c *testenv.Client, sb *sandbox.Generic) channels.Channel {
	t.Helper()
	r := c.Do(http.MethodPost, "/channels", connectBody(sb, "GENERIC", creds(nil)))
	if r.Status != http.StatusCreated {
		t.Fatalf("connect: %d %s", r.Status, r)
	}
	var made envelope
	r.JSON(t, &made)
	return made.Channel
}

func TestConnectLifecycle(t *testing.T) {
	t.Parallel()
	env, sb, acct, c := fixture(t)
	svc := env.Deps.Channels()
	ctx := context.Background()

	ch := connect(t, c, sb)
	want := channels.Connection{Connector: "generic"}
	if ch.State != channels.StateActive || ch.ChannelTypeDisplayName != "Generic" || ch.Name != "My generic shop" || ch.Connection != want {
		t.Errorf("connected channel = %+v", ch)
	}
	var list []channels.Channel
	c.Do(http.MethodGet, "/channels", nil).JSON(t, &list)
	if len(list) != 1 || list[0].UUID != ch.UUID || list[0].Connection != want {
		t.Fatalf("GET /channels = %+v", list)
	}

	// The runtime's view: the link opens to the credentials, the index lists it.
	link, err := svc.Connection(ctx, acct.ID, ch.UUID)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := env.Deps.Secrets(secrets.Credentials).Open(ctx, acct.ID, ch.UUID, link.Credentials)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	_ = json.Unmarshal(plain, &got)
	if len(got) != 3 || got["client_secret"] != clientSecret || link.Channel.Connector != "generic" || link.Channel.Endpoints.API != sb.URL {
		t.Errorf("link = %+v, credentials %v", link.Channel, got)
	}
	if refs := connectedRefs(t, svc, acct.ID); !slices.Equal(refs, []string{ch.UUID + "/generic"}) {
		t.Errorf("connected = %v", refs)
	}
	if _, err := svc.Connection(ctx, "acct_other", ch.UUID); !errors.Is(err, channels.ErrNotFound) {
		t.Errorf("another account's Connection: %v", err)
	}

	// Status writes show in GET and make no channel sync of their own.
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, err := range []error{svc.RecordPoll(ctx, acct.ID, ch.UUID, at), svc.RecordPush(ctx, acct.ID, ch.UUID, at.Add(time.Minute)),
		svc.RecordError(ctx, acct.ID, ch.UUID, "generic: status 500", at.Add(2*time.Minute))} {
		if err != nil {
			t.Fatal(err)
		}
	}
	list = nil
	c.Do(http.MethodGet, "/channels", nil).JSON(t, &list)
	conn := list[0].Connection
	if conn.LastOrderPollAt == nil || *conn.LastOrderPollAt != "2026-03-01T12:00:00Z" || conn.LastPushAt == nil ||
		*conn.LastPushAt != "2026-03-01T12:01:00Z" || conn.LastError == nil || *conn.LastError != "generic: status 500" {
		t.Errorf("connection after the status writes = %+v", conn)
	}

	// PATCH inactive: its listing shows off, the runtime no longer reaches it.
	if r := c.Do(http.MethodPost, "/products/P", map[string]any{"name": "Product P"}); r.Status/100 != 2 {
		t.Fatalf("product: %d %s", r.Status, r)
	}
	if r := c.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": ch.UUID, "channel_sku": "P"}}); r.Status != http.StatusOK {
		t.Fatalf("put listing: %d %s", r.Status, r)
	}
	r := c.Do(http.MethodPatch, "/channels/"+ch.UUID, map[string]any{"channel": map[string]any{"state": "inactive"}})
	var patched envelope
	r.JSON(t, &patched)
	if r.Status != http.StatusOK || patched.Channel.State != channels.StateInactive || patched.Channel.Connection.LastPushAt == nil {
		t.Fatalf("patch inactive: %d %s", r.Status, r)
	}
	testenv.WaitFor(t, func() bool {
		env.Drain(t)
		var ls []listings.Listing
		c.Do(http.MethodGet, "/listings?channel_uuid="+ch.UUID, nil).JSON(t, &ls)
		return len(ls) == 1 && ls[0].SyncStatus == listings.StatusOff
	}, "the inactive channel's listing off")
	if _, err := svc.Connection(ctx, acct.ID, ch.UUID); !errors.Is(err, channels.ErrNotFound) {
		t.Errorf("Connection of an inactive channel: %v", err)
	}
	if refs := connectedRefs(t, svc, acct.ID); len(refs) != 0 {
		t.Errorf("connected after inactive = %v", refs)
	}

	// PATCH active with new credentials (verified): back in the index.
	r = c.Do(http.MethodPatch, "/channels/"+ch.UUID, map[string]any{"channel": map[string]any{"state": "active", "credentials": creds(nil)}})
	if r.Status != http.StatusOK || len(connectedRefs(t, svc, acct.ID)) != 1 {
		t.Fatalf("patch active: %d %s", r.Status, r)
	}
	r = c.Do(http.MethodPatch, "/channels/"+ch.UUID, map[string]any{"channel": map[string]any{"credentials": creds(map[string]any{"refresh_token": "x1-revoked-refresh"})}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), "the refresh token was revoked") {
		t.Errorf("patch with refused credentials: %d %s", r.Status, r)
	}

	// An order of the channel, kept after DELETE.
	doc, _ := json.Marshal(map[string]any{"channel_uuid": ch.UUID, "display_ref": "G-1", "ordered_at": "2026-03-01T10:00:00Z",
		"items": []any{map[string]any{"order_item_ref": "1", "sku": "P", "quantity": 1, "unit_price": 10}}})
	if _, err := env.Deps.Orders().Import(ctx, acct.ID, []json.RawMessage{doc}); err != nil {
		t.Fatal(err)
	}

	// DELETE: disconnected, credentials gone, a channel.disconnected event, orders kept.
	r = c.Do(http.MethodDelete, "/channels/"+ch.UUID, nil)
	var gone envelope
	r.JSON(t, &gone)
	if r.Status != http.StatusOK || gone.Channel.State != channels.StateDisconnected || gone.Channel.Connection.LastError == nil ||
		*gone.Channel.Connection.LastError != channels.DisconnectedByMerchant {
		t.Fatalf("delete: %d %s", r.Status, r)
	}
	if items := rawItems(t, env, acct.ID, "CHCRED"); len(items) != 0 {
		t.Errorf("credentials items after DELETE: %d", len(items))
	}
	if refs := connectedRefs(t, svc, acct.ID); len(refs) != 0 {
		t.Errorf("connected after DELETE = %v", refs)
	}
	if r := c.Do(http.MethodDelete, "/channels/"+ch.UUID, nil); r.Status != http.StatusOK {
		t.Errorf("second DELETE: %d %s", r.Status, r)
	}
	var orders []map[string]any
	c.Do(http.MethodGet, "/orders", nil).JSON(t, &orders)
	if len(orders) != 1 {
		t.Errorf("orders after DELETE: %d", len(orders))
	}
	testenv.WaitFor(t, func() bool {
		env.Drain(t)
		var feed struct {
			Events []struct {
				Type string         `json:"type"`
				Data map[string]any `json:"data"`
			} `json:"events"`
		}
		c.Do(http.MethodGet, "/events", nil).JSON(t, &feed)
		n := 0
		for _, e := range feed.Events {
			if e.Type == "channel.disconnected" && e.Data["uuid"] == ch.UUID {
				n++
			}
		}
		return n == 1
	}, "one channel.disconnected event")
	// A disconnected channel comes back only with new credentials.
	r = c.Do(http.MethodPatch, "/channels/"+ch.UUID, map[string]any{"channel": map[string]any{"state": "active"}})
	if r.Status != http.StatusUnprocessableEntity {
		t.Errorf("reactivate without credentials: %d %s", r.Status, r)
	}
}

// TestConnectRefused: the channel's refusal is a 422 with its message, and nothing is stored.
func TestConnectRefused(t *testing.T) {
	t.Parallel()
	env, sb, acct, c := fixture(t)
	r := c.Do(http.MethodPost, "/channels", connectBody(sb, "generic", creds(map[string]any{"client_secret": "wrong-secret-x1"})))
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.String(), "unknown client or wrong secret") ||
		strings.Contains(r.String(), "wrong\"") {
		t.Errorf("refused: %d %s", r.Status, r)
	}
	if items := rawItems(t, env, acct.ID, "CH", "CHCRED"); len(items) != 0 {
		t.Errorf("items stored after a refusal: %v", items)
	}
}

// TestConnectBadInput: every bad body is a 4xx naming the problem, and nothing is stored.
func TestConnectBadInput(t *testing.T) {
	t.Parallel()
	env, sb, acct, c := fixture(t)
	other := env.NewAccount(t, testenv.AccountOptions{})
	theirs := envelope{Channel: connect(t, env.Client(t, other), sb)}
	withEndpoints := func(api, auth string) map[string]any {
		b := connectBody(sb, "generic", creds(nil))
		b["channel"].(map[string]any)["endpoints"] = map[string]any{"api": api, "auth": auth}
		return b
	}
	withChannel := func(k string, v any) map[string]any {
		b := connectBody(sb, "generic", creds(nil))
		b["channel"].(map[string]any)[k] = v
		return b
	}
	cases := []struct {
		name, method, path string
		body               any
		status             int
		says               string
	}{
		{"malformed JSON", http.MethodPost, "/channels", `{"channel":`, 400, "JSON"},
		{"not an object", http.MethodPost, "/channels", `[]`, 400, "object"},
		{"channel a string", http.MethodPost, "/channels", map[string]any{"channel": "x"}, 422, "channel must be an object"},
		{"no name", http.MethodPost, "/channels", withChannel("name", nil), 422, "channel.name is required"},
		{"name a number", http.MethodPost, "/channels", withChannel("name", map[string]any{}), 422, "channel.name"},
		{"no type", http.MethodPost, "/channels", withChannel("type", ""), 422, "channel.type is required"},
		{"unknown type", http.MethodPost, "/channels", withChannel("type", "Etsy"), 422, "has no connector"},
		{"no credentials", http.MethodPost, "/channels", withChannel("credentials", nil), 422, "channel.credentials is required"},
		{"credentials a string", http.MethodPost, "/channels", withChannel("credentials", "secret"), 422, "channel.credentials must be an object"},
		{"missing field", http.MethodPost, "/channels", withChannel("credentials", creds(map[string]any{"refresh_token": nil})), 422, "credentials.refresh_token is required"},
		{"extra field", http.MethodPost, "/channels", withChannel("credentials", creds(map[string]any{"password": "x"})), 422, "credentials.password is not a field"},
		{"field a number", http.MethodPost, "/channels", withChannel("credentials", creds(map[string]any{"client_id": 5})), 422, "credentials.client_id must be a string"},
		{"oversize field", http.MethodPost, "/channels", withChannel("credentials", creds(map[string]any{"client_id": strings.Repeat("x", 129)})), 422, "credentials.client_id must be at most"},
		{"oversize body", http.MethodPost, "/channels", withChannel("credentials", creds(map[string]any{"refresh_token": strings.Repeat("x", 40<<10)})), 413, "32768"},
		{"endpoint not loopback", http.MethodPost, "/channels", withEndpoints("http://example.com", sb.URL+"/oauth/token"), 422, "endpoints.api"},
		{"endpoint not a URL", http.MethodPost, "/channels", withEndpoints(sb.URL, "ftp://127.0.0.1/x"), 422, "endpoints.auth"},
		{"endpoint unknown", http.MethodPost, "/channels", withChannel("endpoints", map[string]any{"api": sb.URL, "token": "x"}), 422, "endpoints"},
		{"patch nothing", http.MethodPatch, "/channels/" + theirs.Channel.UUID, map[string]any{"channel": map[string]any{}}, 422, "required"},
		{"patch another account's", http.MethodPatch, "/channels/" + theirs.Channel.UUID, map[string]any{"channel": map[string]any{"state": "inactive"}}, 404, "not found"},
		{"patch state disconnected", http.MethodPatch, "/channels/" + theirs.Channel.UUID, map[string]any{"channel": map[string]any{"state": "disconnected"}}, 422, "channel.state"},
		{"delete another account's", http.MethodDelete, "/channels/" + theirs.Channel.UUID, nil, 404, "not found"},
		{"delete an odd uuid", http.MethodDelete, "/channels/nope", nil, 404, "not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.Do(tc.method, tc.path, tc.body)
			if r.Status != tc.status || !strings.Contains(strings.ToLower(r.String()), strings.ToLower(tc.says)) {
				t.Errorf("%d %s, want %d saying %q", r.Status, r, tc.status, tc.says)
			}
			if strings.Contains(r.String(), clientSecret) || strings.Contains(r.String(), refreshToken) {
				t.Errorf("the answer quotes a secret: %s", r)
			}
		})
	}
	if items := rawItems(t, env, acct.ID, "CH", "CHCRED"); len(items) != 0 {
		t.Errorf("items stored by bad input: %d", len(items))
	}
	var list []channels.Channel
	env.Client(t, other).Do(http.MethodGet, "/channels", nil).JSON(t, &list)
	if len(list) != 1 || list[0].State != channels.StateActive {
		t.Errorf("the other account's channel changed: %+v", list)
	}
}

// captured is a slog handler that keeps every record's text.
type captured struct {
	mu  *sync.Mutex
	buf *bytes.Buffer
	h   slog.Handler
}

func newCaptured() *captured {
	c := &captured{mu: &sync.Mutex{}, buf: &bytes.Buffer{}}
	c.h = slog.NewJSONHandler(c.buf, &slog.HandlerOptions{Level: slog.LevelDebug})
	return c
}

// captureLogs makes a captured handler the process's default logger until the test ends.
func captureLogs(t *testing.T) *captured {
	t.Helper()
	logs := newCaptured()
	old := slog.Default()
	slog.SetDefault(slog.New(logs))
	t.Cleanup(func() { slog.SetDefault(old) })
	return logs
}

func (c *captured) Enabled(context.Context, slog.Level) bool { return true }
func (c *captured) Handle(ctx context.Context, r slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.h.Handle(ctx, r)
}
func (c *captured) WithAttrs(as []slog.Attr) slog.Handler {
	return &captured{mu: c.mu, buf: c.buf, h: c.h.WithAttrs(as)}
}
func (c *captured) WithGroup(name string) slog.Handler {
	return &captured{mu: c.mu, buf: c.buf, h: c.h.WithGroup(name)}
}

// TestNoSecretInClear: after a connect, a refused connect, a push and a poll of the channel
// (the runtime opening the credentials and caching an access token) and a disconnect, neither
// the raw items of the account nor the logs hold a secret value. Not parallel: it captures the
// process's default logger.
func TestNoSecretInClear(t *testing.T) {
	env, sb, acct, c := fixture(t)
	logs := captureLogs(t)

	made := envelope{Channel: connect(t, c, sb)}
	c.Do(http.MethodPost, "/channels", connectBody(sb, "generic", creds(map[string]any{"client_secret": clientSecret + "x"})))
	// A push and a poll of the channel: the runtime opens the credentials and caches a token.
	var wh struct {
		UUID string `json:"warehouse_uuid"`
	}
	c.Do(http.MethodPost, "/warehouses", map[string]any{"warehouse": map[string]any{"name": "Main"}}).JSON(t, &wh)
	sku := "SECRET-" + acct.ID
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{http.MethodPut, "/products/" + sku, map[string]any{"name": "Kept secret"}},
		{http.MethodPost, "/inventory", map[string]any{"inventory": []any{map[string]any{"sku": sku, "warehouse_uuid": wh.UUID, "on_hand": 3}}}},
		{http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": made.Channel.UUID, "channel_sku": sku, "sku": sku}}},
	} {
		if r := c.Do(req.method, req.path, req.body); r.Status >= 300 {
			t.Fatalf("%s %s: %d %s", req.method, req.path, r.Status, r)
		}
	}
	testenv.WaitFor(t, func() bool { q, ok := sb.Quantity(clientID, sku); return ok && q == 3 }, "the push")
	schedule(t, env)()
	env.Drain(t)
	var raw bytes.Buffer
	if n := len(rawItems(t, env, acct.ID, "CHCRED")); n != 1 {
		t.Fatalf("%d credentials items, want 1", n)
	}
	if n := len(rawItems(t, env, acct.ID, "CONN")); n == 0 {
		t.Fatal("no runtime item (token, buckets, poll): the cycle did not run")
	}
	for _, item := range rawItems(t, env, acct.ID, "CH", "CHCRED", "CONN", "EV", "IDEM", "LST") {
		for _, v := range item {
			switch v := v.(type) {
			case *types.AttributeValueMemberS:
				raw.WriteString(v.Value)
			case *types.AttributeValueMemberB:
				raw.Write(v.Value)
			}
		}
	}
	logs.mu.Lock()
	raw.Write(logs.buf.Bytes())
	logged := logs.buf.Len()
	logs.mu.Unlock()
	if logged == 0 {
		t.Error("no log captured")
	}
	for _, secret := range []string{clientSecret, refreshToken} {
		if bytes.Contains(raw.Bytes(), []byte(secret)) {
			t.Errorf("%q is in clear in the table or the logs", secret)
		}
	}
	if _, err := env.Deps.Channels().Disconnect(context.Background(), acct.ID, made.Channel.UUID, "refused 3 times"); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Deps.Channels().Connection(context.Background(), acct.ID, made.Channel.UUID); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("Connection after Disconnect: %v", err)
	}
}
