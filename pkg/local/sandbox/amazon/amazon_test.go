package amazon

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// TestOpenKeepsState: a sandbox opened on a file starts again on its address with its
// sellers, listings, orders and the access tokens it gave; an order placed for a bound
// channel (POST /sandbox/orders, as `multisell sandbox order` does) is the seller's.
func TestOpenKeepsState(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "sandbox", "amazon.json")
	a, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	a.AddSeller("S1", "M1", "client", "secret", "refresh")
	a.BindChannel("S1", "ch-1")
	a.PutListing("S1", Listing{SKU: "FBA-1", FBA: true, Quantity: 9})
	a.PutListing("S1", Listing{SKU: "SKU-1", Quantity: 4})
	a.Lock()
	a.Permanent("tok", "S1")
	a.Save()
	a.Unlock()
	o, err := sandbox.PlaceOrder(context.Background(), a.URL, sandbox.OrderRequest{ChannelUUID: "ch-1", Quantity: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.PlaceOrder(context.Background(), a.URL, sandbox.OrderRequest{ChannelUUID: "ch-2"}); err == nil {
		t.Error("an order for a channel no seller is bound to was placed")
	}
	url := a.URL
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	if again.URL != url {
		t.Errorf("URL after a restart: %s, want %s", again.URL, url)
	}
	if q, ok := again.Quantity("S1", "SKU-1"); !ok || q != 4 {
		t.Errorf("listing after a restart: %d %v, want 4", q, ok)
	}
	var got *StoredOrder
	again.With("S1", func(s *Seller) { got = s.Orders[o.ID] })
	if got == nil || got.Items[0].SellerSKU != "SKU-1" || got.Items[0].QuantityOrdered != 2 || got.Order.OrderStatus != "Unshipped" {
		t.Errorf("the placed order after a restart: %+v", got)
	}
	again.Lock()
	defer again.Unlock()
	if id, _, ok := again.Lookup("tok"); id != "S1" || !ok {
		t.Errorf("tokens after a restart: %v", again.Tokens())
	}
}
