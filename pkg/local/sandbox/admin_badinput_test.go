package sandbox_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/local/sandbox/ebay"
	"github.com/multisell/multisell/pkg/local/sandbox/shopify"
)

// TestAdminOrderBadInput: every sandbox's admin order endpoint answers a body that is not a
// JSON object, a missing channel_uuid or a quantity out of range with 400, and a channel no
// seller of it is bound to with 404.
func TestAdminOrderBadInput(t *testing.T) {
	t.Parallel()
	open := map[string]func() (string, func() error, error){
		"generic": func() (string, func() error, error) {
			g, err := sandbox.NewGeneric()
			return started(g, err, func(g *sandbox.Generic) *sandbox.Server { return g.Server })
		},
		"amazon": func() (string, func() error, error) {
			a, err := amazon.New()
			return started(a, err, func(a *amazon.Amazon) *sandbox.Server { return a.Server })
		},
		"shopify": func() (string, func() error, error) {
			s, err := shopify.New()
			return started(s, err, func(s *shopify.Shop) *sandbox.Server { return s.Server })
		},
		"ebay": func() (string, func() error, error) {
			e, err := ebay.New()
			return started(e, err, func(e *ebay.Sandbox) *sandbox.Server { return e.Server })
		},
	}
	tests := []struct {
		name, body string
		want       int
	}{
		{"not JSON", `{"channel_uuid":`, http.StatusBadRequest},
		{"not an object", `["x"]`, http.StatusBadRequest},
		{"no channel", `{"sku":"A"}`, http.StatusBadRequest},
		{"quantity below 1", `{"channel_uuid":"01a2b3c4-0000-7000-8000-000000000001","quantity":-1}`, http.StatusBadRequest},
		{"quantity too large", `{"channel_uuid":"01a2b3c4-0000-7000-8000-000000000001","quantity":1000001}`, http.StatusBadRequest},
		{"unknown channel", `{"channel_uuid":"01a2b3c4-0000-7000-8000-000000000001"}`, http.StatusNotFound},
	}
	for name, opener := range open {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			base, closeFn, err := opener()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = closeFn() })
			for _, tt := range tests {
				resp, err := http.Post(base+sandbox.AdminOrdersPath, "application/json", strings.NewReader(tt.body))
				if err != nil {
					t.Fatal(err)
				}
				_ = resp.Body.Close()
				if got := resp.StatusCode; got != tt.want {
					t.Errorf("%s: status %d, want %d", tt.name, got, tt.want)
				}
			}
		})
	}
}

// started is the base URL and the Close of a sandbox that started (server is its *Server).
func started[S any](s S, err error, server func(S) *sandbox.Server) (string, func() error, error) {
	if err != nil {
		return "", nil, err
	}
	srv := server(s)
	return srv.URL, srv.Close, nil
}
