package connectorstest

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// GenericHarness is the harness of the generic sandbox's connector, conn (a
// sandbox.Connector, or one a test wraps around it).
func GenericHarness(conn connectors.Connector) Harness {
	return Harness{Connector: conn, PageSize: sandbox.GenericPageSize, Start: startGeneric}
}

// startGeneric starts a generic sandbox with one seller bound to channel.
func startGeneric(t *testing.T, channel string) Sandbox {
	t.Helper()
	g, err := sandbox.NewGeneric()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	const id, secret, refresh = "client-conformance", "secret-conformance-1", "refresh-conformance-1"
	g.AddSeller(id, secret, refresh)
	g.BindChannel(id, channel)
	creds, _ := json.Marshal(map[string]string{"client_id": id, "client_secret": secret, "refresh_token": refresh})
	put := func(ref string, doc any) {
		b, _ := json.Marshal(doc)
		g.PutOrder(id, sandbox.GenericOrder{ID: ref, UpdatedAt: time.Now().UTC(), Document: b})
	}
	return Sandbox{
		URL: g.URL, Credentials: creds, SKU: "SKU-1",
		Endpoints: connectors.Endpoints{API: g.URL, Auth: g.URL + "/oauth/token"},
		Refuse:    func(on bool) { g.Refuse(id, on) },
		Quantity:  func(sku string) (int64, bool) { return g.Quantity(id, sku) },
		Trackings: func(order, _ string) int { return len(g.Fulfillments(id, order)) },
		Orders:    func(r *http.Request) bool { return r.Method == http.MethodGet && r.URL.Path == "/v1/orders" },
		BadOrder:  func() string { put("BAD-1", "not an order document"); return "BAD-1" },
		Bind:      func(channel string) { g.BindChannel(id, channel) },
		ForeignOrder: func(other string) {
			put("FOREIGN-1", map[string]any{"channel_uuid": other, "display_ref": "FOREIGN-1"})
		},
	}
}
