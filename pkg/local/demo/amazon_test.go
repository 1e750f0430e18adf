package demo_test

import (
	"context"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestConnectAmazon: after Seed, the demo's Amazon channel connects to the sandbox through
// the connect path, lists three products on it, and a poll of the connector imports the
// sandbox's two orders; an order placed for the channel as `multisell sandbox order` does
// is the seller's.
func TestConnectAmazon(t *testing.T) {
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	ctx := context.Background()
	if err := demo.Seed(ctx, env.Deps, acct.ID, demo.Sizes{Warehouses: 1, Products: 10}, nil); err != nil {
		t.Fatal(err)
	}
	connectors.Register(amazon.Default)
	a, err := amazonsb.NewAmazon()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	ch, err := demo.ConnectAmazon(ctx, env.Deps, acct.ID, a)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Name != demo.AmazonChannel {
		t.Errorf("channel %q, want %q", ch.Name, demo.AmazonChannel)
	}
	var ls []map[string]any
	env.Client(t, acct).Do("GET", "/listings?channel_uuid="+ch.UUID, nil).JSON(t, &ls)
	if len(ls) != 3 {
		t.Errorf("%d listings on the channel, want 3", len(ls))
	}
	svc := env.Deps.Connectors()
	res, err := svc.PollChannel(ctx, connectors.ChannelRef{Account: acct.ID, UUID: ch.UUID})
	if err != nil {
		t.Fatal(err)
	}
	if res.Orders != 2 {
		t.Errorf("the poll read %d orders, want 2", res.Orders)
	}
	if _, err := sandbox.PlaceOrder(ctx, a.URL, sandbox.OrderRequest{ChannelUUID: ch.UUID}); err != nil {
		t.Errorf("an order for the demo channel: %v", err)
	}
}
