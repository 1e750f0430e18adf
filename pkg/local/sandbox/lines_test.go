package sandbox_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/wire"
)

// TestGenericLines: the generic sandbox places an order of several lines in a currency,
// already shipped when asked, and ships or cancels more of a line (AdminLinesPath), refusing
// more than is left; the document carries it all as the import takes it.
func TestGenericLines(t *testing.T) {
	t.Parallel()
	g, err := sandbox.NewGeneric()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	g.AddSeller("client-lines", "secret", "refresh")
	const channel = "01a2b3c4-0000-7000-8000-0000000000aa"
	g.BindChannel("client-lines", channel)
	ctx := context.Background()
	doc := func(o sandbox.GenericOrder) wire.OrderDocument {
		var d wire.OrderDocument
		if err := json.Unmarshal(o.Document, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	shipped, err := sandbox.PlaceOrder(ctx, g.URL, sandbox.OrderRequest{ChannelUUID: channel, SKU: "S", Quantity: 2, Shipped: true, Currency: "GBP"})
	if err != nil {
		t.Fatal(err)
	}
	if d := doc(shipped); d.Currency != "GBP" || d.Items[0].QuantityShipped != 2 || d.Items[0].TrackingNumber == "" {
		t.Errorf("shipped order document %+v, want GBP, line shipped whole with tracking", d)
	}
	o, err := sandbox.PlaceOrder(ctx, g.URL, sandbox.OrderRequest{ChannelUUID: channel, SKU: "S", Quantity: 2, Lines: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := doc(o); d.Currency != "USD" || len(d.Items) != 2 || d.Items[1].QuantityShipped != 0 {
		t.Fatalf("order document %+v, want USD, two open lines", d)
	}
	tests := []struct {
		name    string
		change  sandbox.LineChange
		wantErr bool
	}{
		{"cancel line 2", sandbox.LineChange{Line: 2, Cancelled: 2}, false},
		{"ship line 1 in part", sandbox.LineChange{Line: 1, Shipped: 1}, false},
		{"more than is left", sandbox.LineChange{Line: 1, Shipped: 2}, true},
		{"no such line", sandbox.LineChange{Line: 3, Shipped: 1}, true},
		{"unknown order", sandbox.LineChange{Line: 1, Shipped: 1, OrderID: "GM-9"}, true},
	}
	for _, tc := range tests {
		tc.change.ChannelUUID = channel
		if tc.change.OrderID == "" {
			tc.change.OrderID = o.ID
		}
		if err := sandbox.ChangeLine(ctx, g.URL, tc.change); (err != nil) != tc.wantErr {
			t.Errorf("%s: error %v, want error %v", tc.name, err, tc.wantErr)
		}
	}
	got := g.Order("client-lines", o.ID)
	d := doc(got)
	if d.Items[0].QuantityShipped != 1 || d.Items[0].QuantityCancelled != 0 || d.Items[1].QuantityCancelled != 2 || !got.UpdatedAt.After(o.UpdatedAt) {
		t.Errorf("after the changes: %+v (updated %v, was %v)", d.Items, got.UpdatedAt, o.UpdatedAt)
	}
}
