package ebay

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/wire"
)

// TestParseOrdersBadAnswers: an answer that is not JSON is an error and no order of the page
// comes out; an order that cannot be mapped is left out with a reason naming what is wrong,
// and the others of the page come out.
func TestParseOrdersBadAnswers(t *testing.T) {
	t.Parallel()
	good := `{"orderId":"1","creationDate":"2026-01-01T00:00:00.000Z","lastModifiedDate":"2026-01-01T00:00:00.000Z","lineItems":[{"lineItemId":"1-1","sku":"A","quantity":1}]}`
	for _, tc := range []struct {
		name, body, want string
		orders           int
	}{
		{"not json", `<html>`, "unreadable answer", 0},
		{"no order id", `{"total":2,"orders":[{"lineItems":[]},` + good + `]}`, "no orderId", 1},
		{"bad time", `{"total":1,"orders":[{"orderId":"2","creationDate":"x","lastModifiedDate":"2026-01-01T00:00:00Z","lineItems":[{"lineItemId":"a","sku":"A","quantity":1}]},` + good + `]}`, "creationDate", 1},
		{"no sku", `{"total":1,"orders":[{"orderId":"3","creationDate":"2026-01-01T00:00:00Z","lastModifiedDate":"2026-01-01T00:00:00Z","lineItems":[{"lineItemId":"a","quantity":1}]}]}`, "neither sku nor legacyItemId", 0},
		{"no quantity", `{"total":1,"orders":[{"orderId":"4","creationDate":"2026-01-01T00:00:00Z","lastModifiedDate":"2026-01-01T00:00:00Z","lineItems":[{"lineItemId":"a","sku":"A"}]}]}`, "no lineItemId or quantity", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			page, err := parseOrders("ch", 0, []byte(tc.body), nil)
			got := strings.Join(page.Refused, "; ")
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want an error or a refused order saying %q", got, tc.want)
			}
			if got := len(page.Orders); got != tc.orders {
				t.Errorf("orders: got %d, want %d", got, tc.orders)
			}
		})
	}
}

// TestParseOrdersPaging: the next page token is the next offset until total is reached.
func TestParseOrdersPaging(t *testing.T) {
	t.Parallel()
	order := `{"orderId":"1","creationDate":"2026-01-01T00:00:00.000Z","lastModifiedDate":"2026-01-01T00:00:05.000Z","lineItems":[{"lineItemId":"1-1","legacyItemId":"1234","quantity":2}]}`
	for _, tc := range []struct {
		name   string
		offset int
		total  string
		want   string
	}{
		{"more", 0, "3", "1"},
		{"last", 2, "3", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			page, err := parseOrders("ch", tc.offset, []byte(`{"total":`+tc.total+`,"orders":[`+order+`]}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := page.Next; got != tc.want {
				t.Errorf("next: got %q, want %q", got, tc.want)
			}
			var d struct {
				Items []struct{ SKU string } `json:"items"`
			}
			_ = json.Unmarshal(page.Orders[0].Document, &d)
			if got, want := d.Items[0].SKU, "1234"; got != want {
				t.Errorf("sku of a line without one: got %q, want the legacy item id %q", got, want)
			}
		})
	}
}

// TestParseBulk: each SKU asked gets its own result; eBay's per-SKU errors fail only their
// SKU with eBay's message; a SKU the answer omits fails; an unreadable answer is an error.
func TestParseBulk(t *testing.T) {
	t.Parallel()
	asked := []PriceQuantity{{SKU: "A", ShipToLocationAvailability: &ShipToLocationAvailability{Quantity: 3}},
		{SKU: "B", ShipToLocationAvailability: &ShipToLocationAvailability{Quantity: 4}},
		{SKU: "C", ShipToLocationAvailability: &ShipToLocationAvailability{Quantity: 5}}}
	body := `{"responses":[{"sku":"A","statusCode":200},{"sku":"B","statusCode":400,"errors":[{"errorId":25702,"message":"SKU B is not available in the system"}]}]}`
	got, err := parseBulk(asked, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := []connectors.QuantityResult{{ChannelSKU: "A", OK: true, ChannelQuantity: 3},
		{ChannelSKU: "B", Error: "eBay: SKU B is not available in the system (errorId 25702)"},
		{ChannelSKU: "C", Error: "eBay gave no result for this SKU"}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("result %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if _, err := parseBulk(asked, []byte(`{"responses":`)); err == nil {
		t.Error("unreadable answer: no error")
	}
}

// TestCarrierCode: the carrier names of the eBay carrier rules become eBay's codes, and a
// carrier eBay does not list its code Other.
func TestCarrierCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ given, want string }{
		{"USPS", "USPS"}, {"ups", "UPS"}, {"Royal Mail", "RoyalMail"}, {"FedEx", "FedEx"}, {"Evri", "Hermes"},
		{"DHL eCommerce", "DHLGlobalMail"}, {"Canada Post", "Other"}, {"Bob's Couriers", "Other"},
	} {
		if got := CarrierCode(tc.given); got != tc.want {
			t.Errorf("CarrierCode(%q): got %q, want %q", tc.given, got, tc.want)
		}
	}
}

// FuzzParseOrders: no getOrders answer panics the parser; what it accepts are documents
// that say the channel, an order number and lines.
func FuzzParseOrders(f *testing.F) {
	f.Add([]byte(`{"total":1,"orders":[{"orderId":"1","creationDate":"2026-01-01T00:00:00.000Z","lastModifiedDate":"2026-01-01T00:00:00.000Z","lineItems":[{"lineItemId":"1-1","sku":"A","quantity":1}],"cancelStatus":{"cancelState":"CANCELED"},"pricingSummary":{"total":{"value":"1.00"}}}]}`))
	f.Add([]byte(`{"orders":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := parseOrders("ch", 0, body, nil)
		if err != nil {
			return
		}
		for _, o := range page.Orders {
			var d struct {
				Channel string            `json:"channel_uuid"`
				Ref     string            `json:"display_ref"`
				Items   []json.RawMessage `json:"items"`
			}
			if json.Unmarshal(o.Document, &d) != nil || d.Channel != "ch" || d.Ref == "" || len(d.Items) == 0 {
				t.Fatalf("document %s", o.Document)
			}
		}
	})
}

// FuzzParseBulk: no bulk answer panics the parser, and it answers each SKU asked once.
func FuzzParseBulk(f *testing.F) {
	f.Add([]byte(`{"responses":[{"sku":"A","statusCode":200},{"sku":"B","statusCode":400,"errors":[{"errorId":1,"message":"m"}]}]}`))
	asked := []PriceQuantity{{SKU: "A", ShipToLocationAvailability: &ShipToLocationAvailability{}}, {SKU: "B", ShipToLocationAvailability: &ShipToLocationAvailability{}}}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := parseBulk(asked, body)
		if err == nil && len(res) != len(asked) {
			t.Fatalf("%d results for %d SKUs", len(res), len(asked))
		}
	})
}

// FuzzErrorMessage: no error body panics errorMessage, and what it quotes is bounded.
func FuzzErrorMessage(f *testing.F) {
	f.Add([]byte(`{"errors":[{"errorId":1001,"domain":"OAuth","category":"REQUEST","message":"Invalid access token"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		_ = errorMessage(body)
	})
}

// TestTotals: the document's money from eBay's pricingSummary, its tax all that eBay's total
// holds beyond items, delivery and discounts, so that subtotal - discount + shipping_cost +
// tax is total to the cent.
func TestTotals(t *testing.T) {
	t.Parallel()
	usd := func(v string) *Amount { return &Amount{Value: v, Currency: "USD"} }
	tests := []struct {
		name string
		p    *PricingSummary
		want string // currency subtotal discount shipping tax total
	}{
		{"plain", &PricingSummary{PriceSubtotal: usd("19.99"), Total: usd("19.99")}, "USD 19.99  0.00  19.99"},
		{"collected tax", &PricingSummary{PriceSubtotal: usd("19.99"), Tax: usd("1.65"), Total: usd("21.64")}, "USD 19.99  0.00 1.65 21.64"},
		{"collected tax beyond tax", &PricingSummary{PriceSubtotal: usd("10.00"), DeliveryCost: usd("5"), Tax: usd("0.50"), Total: usd("16.30")},
			"USD 10.00  5.00 1.30 16.30"},
		{"discounts, fee, adjustment", &PricingSummary{PriceSubtotal: usd("40.00"), Adjustment: usd("-2.00"), PriceDiscount: usd("-4.00"),
			DeliveryCost: usd("6.00"), DeliveryDiscount: usd("-1.00"), Fee: usd("0.25"), Tax: usd("2.75"), Total: usd("42.00")},
			"USD 38.00 5.00 6.00 3.00 42.00"},
		{"not two decimals", &PricingSummary{PriceSubtotal: &Amount{Value: "1.234", Currency: "KWD"}, Total: &Amount{Value: "1.234", Currency: "KWD"}},
			"KWD 1.234    1.234"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var d wire.OrderDocument
			totals(&d, tt.p)
			got := fmt.Sprint(d.Currency, " ", d.Subtotal, " ", d.Discount, " ", d.ShippingCost, " ", d.Tax, " ", d.Total)
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestIdentityBase: getUser is called on eBay's own host of the Commerce Identity API (apiz)
// beside eBay's production and sandbox APIs, and on any other API endpoint (a sandbox of
// ours) itself.
func TestIdentityBase(t *testing.T) {
	t.Parallel()
	tests := []struct{ api, want string }{
		{"https://api.ebay.com", "https://apiz.ebay.com"},
		{"https://api.ebay.com/", "https://apiz.ebay.com"},
		{"https://api.sandbox.ebay.com", "https://apiz.sandbox.ebay.com"},
		{"http://127.0.0.1:4567", "http://127.0.0.1:4567"},
	}
	for _, tt := range tests {
		if got, err := identityBase(tt.api); err != nil || got != tt.want {
			t.Errorf("identityBase(%q) = %q, %v; want %q", tt.api, got, err, tt.want)
		}
	}
}
