package consent_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
	_ "github.com/multisell/multisell/pkg/local/sandbox/builtin" // the sandboxes register their kinds
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/orderstest"
)

// consentSandboxes are the sandboxes of the kinds whose connector connects by consent,
// by connector name: each started once for the test binary, its connector registered and
// its app made the stack's app of its type.
var consentSandboxes = struct {
	once sync.Once
	by   map[string]demo.ConsentSandbox
	err  error
}{}

// sandboxes starts the consent sandboxes (once) and returns them by connector name.
func sandboxes(t testing.TB) map[string]demo.ConsentSandbox {
	t.Helper()
	env := testenv.Get(t)
	consentSandboxes.once.Do(func() {
		consentSandboxes.by = map[string]demo.ConsentSandbox{}
		dir, err := os.MkdirTemp("", "consent-sandboxes-") // lives as long as the test binary
		if err != nil {
			consentSandboxes.err = err
			return
		}
		for _, k := range demo.Kinds() {
			connectors.Register(k.Connector)
			name := k.Connector.Spec().Name
			if _, ok := k.Connector.(connectors.Consenter); !ok {
				continue
			}
			r, err := k.Open(filepath.Join(dir, name+".json"))
			if err != nil {
				consentSandboxes.err = err
				return
			}
			if r.Consent == nil {
				continue // reported by TestEveryConsenterHasASandbox
			}
			cs := r.Consent(consent.CallbackURL(env.URL, name))
			if err := env.Deps.LocalApps.Set(name, cs.App); err != nil {
				consentSandboxes.err = err
				return
			}
			consentSandboxes.by[name] = cs
		}
	})
	if consentSandboxes.err != nil {
		t.Fatal(consentSandboxes.err)
	}
	return consentSandboxes.by
}

// returnPage is a receiver of the browser at the end of a consent (its URL the
// return_url); the tests read where the callback sent the browser without following it.
var returnPage = sync.OnceValue(func() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("back")) }))
})

// browser is a browser that does not follow redirects, so a test reads each.
var browser = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: time.Minute}

// visit opens u as the browser and returns the status, the Location and the body.
func visit(t *testing.T, u string) (int, string, string) {
	t.Helper()
	resp, err := browser.Get(u)
	if err != nil {
		t.Fatalf("open %s: %v", u, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// authorize creates an authorization of the fixture's account through the API and returns
// its consent URL.
func authorize(t *testing.T, f *orderstest.Fixture, auth map[string]any) string {
	t.Helper()
	r := f.C.Do(http.MethodPost, "/channels/authorizations", map[string]any{"authorization": auth})
	if r.Status != http.StatusCreated {
		t.Fatalf("POST /channels/authorizations: %d %s", r.Status, r)
	}
	var got struct {
		Authorization map[string]any `json:"authorization"`
	}
	r.JSON(t, &got)
	exp, _ := time.Parse(time.RFC3339, asString(got.Authorization["expires_at"]))
	if d := time.Until(exp); d < 9*time.Minute || d > 10*time.Minute+time.Second {
		t.Errorf("expires_at %v, want ten minutes from now", got.Authorization["expires_at"])
	}
	return asString(got.Authorization["consent_url"])
}

// asString is v as a string ("" for anything else).
func asString(v any) string { s, _ := v.(string); return s }

// body is an authorization of the consent sandbox's type with its seller's fields.
func body(name string, fields map[string]string, returnURL string) map[string]any {
	m := map[string]any{"type": name, "name": "Consent " + name}
	if returnURL != "" {
		m["return_url"] = returnURL
	}
	for k, v := range fields {
		m[k] = v
	}
	return m
}

// connected are the account's channels connected through a connector.
func connected(t *testing.T, f *orderstest.Fixture) []channels.Channel {
	t.Helper()
	var all, out []channels.Channel
	f.C.Do(http.MethodGet, "/channels", nil).JSON(t, &all)
	for _, c := range all {
		if c.Connection.Connector != channels.ConnectorExternal {
			out = append(out, c)
		}
	}
	return out
}

// TestEveryConsenterHasASandbox: every registered connector that connects by consent has a
// sandbox kind offering its consent page, so the end-to-end test below covers it.
func TestEveryConsenterHasASandbox(t *testing.T) {
	sbs := sandboxes(t)
	for _, c := range connectors.Consenters() {
		if _, ok := sbs[c.Spec().Name]; !ok {
			t.Errorf("%s connects by consent but no sandbox kind offers a consent page (demo.Opener's consent)", c.Spec().Name)
		}
	}
	if len(sbs) < 2 {
		t.Errorf("consent sandboxes %d, want Amazon's and eBay's at least", len(sbs))
	}
}

// TestConsentConnects, for every channel type that connects by consent: an authorization
// created through the API, the consent approved on the sandbox's consent page, the callback
// followed as a browser would: the browser lands on return_url with the channel's uuid, the
// channel is connected, a stock change is pushed to its listing and an order placed on the
// marketplace is imported by the scheduled poll. A second consent of the same marketplace
// account reconnects that channel instead of making another.
func TestConsentConnects(t *testing.T) {
	for name, sb := range sandboxes(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := orderstest.New(t)
			seller, fields := sb.AddSeller()
			consentURL := authorize(t, f, body(name, fields, returnPage().URL+"/done?from=consent"))
			back, err := sandbox.Consent(context.Background(), consentURL, sandbox.Approve, seller)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(back.String(), f.Env.URL+"/channels/authorizations/"+name+"/callback?") {
				t.Fatalf("the consent page sent the browser to %s, not the callback route", back)
			}
			status, loc, page := visit(t, back.String())
			if status != http.StatusSeeOther {
				t.Fatalf("callback: %d %s", status, page)
			}
			to, _ := url.Parse(loc)
			uuid := to.Query().Get("channel_uuid")
			if !strings.HasPrefix(loc, returnPage().URL+"/done?") || to.Query().Get("from") != "consent" || uuid == "" {
				t.Fatalf("callback sent the browser to %s, want the return_url with its query and channel_uuid", loc)
			}
			chs := connected(t, f)
			if len(chs) != 1 || chs[0].UUID != uuid || chs[0].Connection.Connector != name || chs[0].State != channels.StateActive || chs[0].Name != "Consent "+name {
				t.Fatalf("connected channels %+v, want %s active", chs, uuid)
			}
			sb.Bind(seller, uuid)

			wh := f.Warehouse("A")
			sku := "CNS-" + name
			f.Product(sku)
			sb.List(seller, sku)
			if r := f.C.Do(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": uuid, "channel_sku": sku, "sku": sku}}); r.Status != http.StatusOK {
				t.Fatalf("link: %d %s", r.Status, r)
			}
			f.Stock(sku, wh, 6)
			testenv.WaitFor(t, func() bool { q, _ := sb.Quantity(seller, sku); return q == 6 }, "the stock pushed to the listing")

			placeOrder(t, sb, uuid, sku)
			scheduleTick(t, f)
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("channels: %s", f.C.Do(http.MethodGet, "/channels", nil))
				}
			})
			testenv.WaitFor(t, func() bool { return len(f.List("/orders?channel_uuid="+uuid)) == 1 }, "the order imported")

			// The same seller again: its channel is reconnected (eBay names no account, so
			// it is a second channel there).
			again := authorize(t, f, body(name, fields, returnPage().URL))
			back, err = sandbox.Consent(context.Background(), again, sandbox.Approve, seller)
			if err != nil {
				t.Fatal(err)
			}
			if status, loc, page = visit(t, back.String()); status != http.StatusSeeOther || !strings.Contains(loc, "channel_uuid=") {
				t.Fatalf("second consent: %d %s %s", status, loc, page)
			}
			to, _ = url.Parse(loc)
			conn, _ := connectors.Lookup(name)
			if _, names := conn.(connectors.AccountNamer); names && to.Query().Get("channel_uuid") != uuid {
				t.Errorf("second consent of the same seller connected %s, want channel %s reconnected", to.Query().Get("channel_uuid"), uuid)
			}
		})
	}
}

// placeOrder places an order of sku on the channel's marketplace (the sandbox's admin
// endpoint, as a buyer would).
func placeOrder(t *testing.T, sb demo.ConsentSandbox, uuid, sku string) {
	t.Helper()
	if _, err := sandbox.PlaceOrder(context.Background(), sb.App.Endpoints.API, sandbox.OrderRequest{ChannelUUID: uuid, SKU: sku}); err != nil {
		t.Fatal(err)
	}
}

// ticks numbers the schedule runs of the tests.
var ticks atomic.Int64

// scheduleTick runs the connector-poll-schedule function as the schedule does, in a slot of
// its own: a run is deduplicated per channel and slot, and another test's run in the
// current slot may have polled the test's channel before its order existed.
func scheduleTick(t *testing.T, f *orderstest.Fixture) {
	t.Helper()
	at := time.Now().Add(-time.Duration(ticks.Add(1)) * 24 * time.Hour)
	h, err := f.Env.Handler("connector-poll-schedule")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.(func(context.Context, events.EventBridgeEvent) error)(context.Background(), events.EventBridgeEvent{Time: at}); err != nil {
		t.Fatal(err)
	}
}
