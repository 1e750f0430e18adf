package ebay_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/ebay"
)

// TestCollectedTax: an order with sales tax eBay collects and remits imports with that tax in
// its tax and total (getOrders asked with fieldGroups=TAX_BREAKDOWN), and its totals add up.
func TestCollectedTax(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	o := sbx.NewOrder("30-00001-00001", "SKU-1", 1, time.Now())
	sbx.WithCollectedTax(&o, 165)
	f.sb.PutOrder(seller, o)
	if _, err := f.Runtime(30*time.Second).Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	docs := f.Inbox.TakeOrders()["30-00001-00001"]
	if len(docs) != 1 {
		t.Fatalf("order sent %d times, want once", len(docs))
	}
	d := docs[0]
	line := d["items"].([]any)[0].(map[string]any)
	got := fmt.Sprint(d["currency"], " ", d["subtotal"], " ", d["tax"], " ", d["total"], " ", line["tax"], " ", line["total"])
	if want := "USD 19.99 1.65 21.64 1.65 21.64"; got != want {
		t.Errorf("currency subtotal tax total, line tax total: got %s, want %s", got, want)
	}
}

// TestLinesOnEBay: lines shipped or cancelled on eBay (Seller Hub, through the sandbox's
// admin) import with their quantities shipped and cancelled, and a shipped line with the
// carrier and tracking number of its shipping fulfillment; an order placed shipped whole
// imports with every line shipped.
func TestLinesOnEBay(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := ctx(t, 60*time.Second)
	f.sb.AddListing(seller, "SKU-L", 10)
	f.sb.BindChannel(seller, f.Ch.UUID)
	o, err := sandbox.PlaceOrder(c, f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID, SKU: "SKU-L", Quantity: 3, Lines: 2, Currency: "GBP"})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range []sandbox.LineChange{
		{ChannelUUID: f.Ch.UUID, OrderID: o.ID, Line: 1, Shipped: 2},
		{ChannelUUID: f.Ch.UUID, OrderID: o.ID, Line: 2, Cancelled: 3},
	} {
		if err := sandbox.ChangeLine(c, f.sb.URL, ch); err != nil {
			t.Fatal(err)
		}
	}
	if err := sandbox.ChangeLine(c, f.sb.URL, sandbox.LineChange{ChannelUUID: f.Ch.UUID, OrderID: o.ID, Line: 1, Shipped: 2}); err == nil {
		t.Error("shipping more than is left: no error")
	}
	whole, err := sandbox.PlaceOrder(c, f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID, SKU: "SKU-L", Lines: 2, Shipped: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Runtime(30*time.Second).Poll(c, f.Ch); err != nil {
		t.Fatal(err)
	}
	docs := f.Inbox.TakeOrders()
	line := func(order string, i int) string {
		if len(docs[order]) != 1 {
			return fmt.Sprintf("order sent %d times", len(docs[order]))
		}
		l := docs[order][0]["items"].([]any)[i].(map[string]any)
		return fmt.Sprint(docs[order][0]["currency"], " ", l["quantity"], " ", l["quantity_shipped"], " ", l["quantity_cancelled"], " ", l["carrier_name"], " ", l["tracking_number"] != nil)
	}
	tests := []struct {
		order string
		line  int
		want  string
	}{
		{o.ID, 0, "GBP 3 2 <nil> USPS true"},
		{o.ID, 1, "GBP 3 <nil> 3 <nil> false"},
		{whole.ID, 0, "USD 1 1 <nil> USPS true"},
		{whole.ID, 1, "USD 1 1 <nil> USPS true"},
	}
	for _, tt := range tests {
		if got := line(tt.order, tt.line); got != tt.want {
			t.Errorf("order %s line %d (currency quantity shipped cancelled carrier tracked): got %s, want %s", tt.order, tt.line+1, got, tt.want)
		}
	}
}
