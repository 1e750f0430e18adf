package testenv

import (
	"net/http/httptest"
	"testing"

	"github.com/multisell/multisell/pkg/local/gateway"
)

// Gateway is a second local gateway over the shared stack, built with
// options of its own: the shared one runs without the authorizer cache and
// without usage plans, so tests of those build one here.
type Gateway struct {
	*gateway.Gateway
	env    *Env
	server *httptest.Server
}

// NewGateway serves the stack's template through a gateway built with opts
// and the handlers lookup returns (nil: the stack's own), until t ends.
func (e *Env) NewGateway(t testing.TB, opts gateway.Options, lookup gateway.Lookup) *Gateway {
	t.Helper()
	if lookup == nil {
		lookup = e.Handler
	}
	if opts.Logger == nil {
		opts.Logger = testLogger()
	}
	g, err := gateway.NewGateway(e.Template, lookup, opts)
	if err != nil {
		t.Fatalf("testenv: gateway: %v", err)
	}
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return &Gateway{Gateway: g, env: e, server: srv}
}

// Client returns a client authenticated as acct through this gateway.
func (g *Gateway) Client(t testing.TB, acct Account) *Client {
	t.Helper()
	c := g.env.Client(t, acct)
	c.base, c.http = g.server.URL+"/"+g.Stage(), g.server.Client()
	return c
}
