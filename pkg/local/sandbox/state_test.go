package sandbox

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenGenericKeepsState: a Generic opened on a file starts again on its address with
// its sellers, their orders and listings, and the access tokens it gave.
func TestOpenGenericKeepsState(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "sandbox", "generic.json")
	g, err := OpenGeneric(file)
	if err != nil {
		t.Fatal(err)
	}
	g.AddSeller("s1", "secret", "refresh")
	g.BindChannel("s1", "ch-1")
	g.Change("s1", func(s *seller) { s.Quantities["SKU-1"] = 4 })
	g.Lock()
	g.Permanent("tok", "s1")
	g.Save()
	g.Unlock()
	o, err := PlaceOrder(context.Background(), g.URL, OrderRequest{ChannelUUID: "ch-1"})
	if err != nil {
		t.Fatal(err)
	}
	url := g.URL
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}

	again, err := OpenGeneric(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	if again.URL != url {
		t.Errorf("URL after a restart: %s, want %s", again.URL, url)
	}
	if q, ok := again.Quantity("s1", "SKU-1"); !ok || q != 4 {
		t.Errorf("listing after a restart: %d %v, want 4", q, ok)
	}
	var got map[string]GenericOrder
	again.With("s1", func(s *seller) { got = s.Orders })
	if got[o.ID].ID != o.ID || string(got[o.ID].Document) != string(o.Document) {
		t.Errorf("orders after a restart: %v, want %s", got, o.ID)
	}
	again.Lock()
	defer again.Unlock()
	if id, _, ok := again.Lookup("tok"); id != "s1" || !ok {
		t.Errorf("tokens after a restart: %v", again.Tokens())
	}
}

// TestPlaceOrder: POST /sandbox/orders places an order on the shop bound to the channel,
// as an order import document; what it cannot place is refused with a message.
func TestPlaceOrder(t *testing.T) {
	t.Parallel()
	g, err := NewGeneric()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	g.AddSeller("s1", "secret", "refresh")
	g.BindChannel("s1", "ch-1")
	g.AddSeller("s2", "secret", "refresh")
	g.BindChannel("s2", "ch-2")
	g.Change("s1", func(s *seller) { s.Quantities["A-0"], s.Quantities["B-1"] = 0, 3 })
	tests := []struct {
		name    string
		in      OrderRequest
		wantSKU string
		wantQty int
		wantErr string
	}{
		{"defaults: the first listing in stock, one", OrderRequest{ChannelUUID: "ch-1"}, "B-1", 1, ""},
		{"named", OrderRequest{ChannelUUID: "ch-1", SKU: "X-9", Quantity: 2}, "X-9", 2, ""},
		{"unknown channel", OrderRequest{ChannelUUID: "ch-9"}, "", 0, "no shop of this sandbox is channel ch-9"},
		{"no listing", OrderRequest{ChannelUUID: "ch-2"}, "", 0, "no listing yet"},
		{"bad quantity", OrderRequest{ChannelUUID: "ch-1", Quantity: -1}, "", 0, "quantity"},
		{"no channel", OrderRequest{}, "", 0, "channel_uuid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := PlaceOrder(context.Background(), g.URL, tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				ChannelUUID string `json:"channel_uuid"`
				DisplayRef  string `json:"display_ref"`
				Items       []struct {
					SKU      string `json:"sku"`
					Quantity int    `json:"quantity"`
				} `json:"items"`
			}
			if err := json.Unmarshal(o.Document, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.ChannelUUID != tt.in.ChannelUUID || doc.DisplayRef != o.ID || len(doc.Items) != 1 ||
				doc.Items[0].SKU != tt.wantSKU || doc.Items[0].Quantity != tt.wantQty {
				t.Errorf("got %s, want %s of %s on %s", o.Document, tt.wantSKU, o.ID, tt.in.ChannelUUID)
			}
		})
	}
}
