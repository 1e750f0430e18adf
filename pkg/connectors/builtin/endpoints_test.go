package builtin_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/netip"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/builtin"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// resolver answers every host name with one address.
type resolver netip.Addr

func (r resolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.Addr(r)}, nil
}

// TestEndpointsResolvingInsideRefused: in AWS (the Policy not local), a channel whose
// endpoint's name resolves to a private, loopback or metadata address is never connected
// to: the marketplace's own hosts, an endpoint a merchant gave and the host a Shopify
// shop domain names alike. The verification fails with the Policy's refusal.
func TestEndpointsResolvingInsideRefused(t *testing.T) {
	t.Parallel()
	builtin.Register()
	shop := maps.Clone(validCredentials["shopify"])
	shop["shop_domain"] = "inside.example"
	creds := map[string]map[string]any{"amazon": validCredentials["amazon"], "shopify": shop, "ebay": validCredentials["ebay"],
		"walmart": validCredentials["walmart"]}
	tests := []struct {
		name, connector string
		endpoints       connectors.Endpoints
		addr            string
		wantReason      string
	}{
		{"amazon's hosts, metadata", "amazon", connectors.Endpoints{}, "169.254.169.254", "metadata address"},
		{"ebay's hosts, private", "ebay", connectors.Endpoints{}, "10.0.0.5", "private address"},
		{"a shop domain, loopback", "shopify", connectors.Endpoints{}, "127.0.0.1", "loopback address"},
		{"walmart's hosts, private", "walmart", connectors.Endpoints{}, "172.16.0.9", "private address"},
		{"endpoints given, private", "amazon",
			connectors.Endpoints{API: "https://sp.inside.example", Auth: "https://auth.inside.example/o2/token"}, "192.168.1.10", "private address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rt := &connectors.Runtime{Policy: webhookhttp.Policy{}, Resolver: resolver(netip.MustParseAddr(tt.addr))}
			raw, _ := json.Marshal(creds[tt.connector])
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err := rt.Verify(ctx, connectors.Channel{Account: "acct_a", UUID: "01a2b3c4-0000-7000-8000-000000000001",
				Connector: tt.connector, Endpoints: tt.endpoints}, raw)
			var ae *webhookhttp.AddrError
			if !errors.As(err, &ae) {
				t.Fatalf("got %v, want the Policy's refusal of %s", err, tt.addr)
			}
			if got, want := ae.Reason, tt.wantReason; got != want {
				t.Errorf("reason %q, want %q", got, want)
			}
		})
	}
}
