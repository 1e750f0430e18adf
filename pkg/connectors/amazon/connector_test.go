package amazon

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/wire"
)

// TestCarrierCode: a carrier by Amazon's carrier rules, as Amazon's code, any other as Other
// with the name the merchant gave (as the shipment message carries it: carrier_name "Other"
// and carrier_name_given the merchant's spelling).
func TestCarrierCode(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, given, code, carrierName string }{
		{"UPS", "ups", "UPS", ""},
		{"united parcel service", "united parcel service", "UPS", ""},
		{"FedEx", "FedEx", "FedEx", ""},
		{"amzl", "amzl", "Amazon Shipping", ""},
		{"Royal Mail", "royal mail", "Royal Mail", ""},
		{"Other", "Bob's Courier", "Other", "Bob's Courier"},
		{"Other", "", "Other", "Other"},
		{"Bob's Courier", "", "Other", "Bob's Courier"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/"+tt.given, func(t *testing.T) {
			t.Parallel()
			code, name := carrierCode(tt.name, tt.given)
			if got, want := [2]string{code, name}, [2]string{tt.code, tt.carrierName}; got != want {
				t.Errorf("carrierCode(%q, %q) = %v, want %v", tt.name, tt.given, got, want)
			}
		})
	}
}

// TestDocument: the mapping of Amazon's statuses to the order import document.
func TestDocument(t *testing.T) {
	t.Parallel()
	one, none := int64(1), int64(0)
	tests := []struct {
		status  string
		items   []orderItem
		payment any
		cancel  any
		line    any
	}{
		{"Pending", []orderItem{{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &one}}, "none", nil, "Pending"},
		{"Unshipped", []orderItem{{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &one}}, "all", nil, "Unshipped"},
		{"PartiallyShipped", []orderItem{{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &one, QuantityShipped: 1}}, "all", nil, "Shipped"},
		{"Canceled", []orderItem{{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &one}}, nil, "2026-01-02T00:00:00Z", "Canceled"},
		{"Unfulfillable", []orderItem{{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &one}}, nil, "2026-01-02T00:00:00Z", "Unfulfillable"},
	}
	for _, tt := range tests {
		t.Run(tt.status, func(t *testing.T) {
			t.Parallel()
			raw, err := document("ch", order{AmazonOrderID: "1", PurchaseDate: "2026-01-01T00:00:00Z", LastUpdateDate: "2026-01-02T00:00:00Z", OrderStatus: tt.status}, tt.items)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			_ = json.Unmarshal(raw, &doc)
			line := doc["items"].([]any)[0].(map[string]any)
			if got, want := [3]any{doc["payment_status"], doc["cancelled_at"], line["status"]}, [3]any{tt.payment, tt.cancel, tt.line}; got != want {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
	t.Run("a line of no quantity left", func(t *testing.T) {
		t.Parallel()
		raw, err := document("ch", order{AmazonOrderID: "1", PurchaseDate: "2026-01-01T00:00:00Z", OrderStatus: "Unshipped", LastUpdateDate: "x"},
			[]orderItem{{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &one}, {SellerSKU: "B", OrderItemID: "2", QuantityOrdered: &none}})
		if err != nil {
			t.Fatal(err)
		}
		var doc wire.OrderDocument
		_ = json.Unmarshal(raw, &doc)
		var got []string
		for _, it := range doc.Items {
			got = append(got, fmt.Sprint(it.OrderItemRef, " ", it.Quantity, " ", it.QuantityCancelled))
		}
		if want := []string{"1 1 0", "2 1 1"}; !slices.Equal(got, want) || doc.CancelledAt != "" {
			t.Errorf("lines (ref quantity cancelled) %q, cancelled_at %q; want %q and the order open", got, doc.CancelledAt, want)
		}
	})
	t.Run("cancelled without lines", func(t *testing.T) {
		t.Parallel()
		raw, err := document("ch", order{AmazonOrderID: "1", OrderStatus: "Canceled", LastUpdateDate: "x"}, []orderItem{{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &none}})
		if got := [2]any{raw == nil, err}; got != [2]any{true, nil} {
			t.Errorf("got %v, want no document and no error", got)
		}
	})
}

// TestDocumentSKU: a line's sku is its SellerSKU, else its ASIN (SellerSKU is optional); a
// line with neither, or without an id or quantity, fails the order's document.
func TestDocumentSKU(t *testing.T) {
	t.Parallel()
	one := int64(1)
	tests := []struct {
		name string
		item orderItem
		want string // the line's sku, "" for an error
	}{
		{"SellerSKU", orderItem{ASIN: "B0A", SellerSKU: "S-1", OrderItemID: "1", QuantityOrdered: &one}, "S-1"},
		{"ASIN only", orderItem{ASIN: "B0A", OrderItemID: "1", QuantityOrdered: &one}, "B0A"},
		{"neither", orderItem{OrderItemID: "1", QuantityOrdered: &one}, ""},
		{"no id", orderItem{SellerSKU: "S-1", QuantityOrdered: &one}, ""},
		{"no quantity", orderItem{SellerSKU: "S-1", OrderItemID: "1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw, err := document("ch", order{AmazonOrderID: "1", PurchaseDate: "2026-01-01T00:00:00Z", OrderStatus: "Unshipped"}, []orderItem{tt.item})
			got := ""
			if err == nil {
				var doc struct {
					Items []struct{ SKU string } `json:"items"`
				}
				_ = json.Unmarshal(raw, &doc)
				got = doc.Items[0].SKU
			}
			if got != tt.want {
				t.Errorf("sku: got %q (error %v), want %q", got, err, tt.want)
			}
		})
	}
}

// FuzzParseOrders: getOrders answers never panic, and an order read has its id, status and
// update time (the others are left out with a reason).
func FuzzParseOrders(f *testing.F) {
	f.Add([]byte(`{"payload":{"Orders":[{"AmazonOrderId":"1","PurchaseDate":"2026-01-01T00:00:00Z","LastUpdateDate":"2026-01-01T00:00:00Z","OrderStatus":"Unshipped"}],"NextToken":"x"}}`))
	f.Add([]byte(`{"payload":{}}`))
	f.Add([]byte(`{"errors":[{"code":"x"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		orders, _, _, err := parseOrders(body)
		if err != nil {
			return
		}
		for _, o := range orders {
			if o.AmazonOrderID == "" || o.OrderStatus == "" || o.updated.IsZero() && o.LastUpdateDate == "" {
				t.Fatalf("order read without its fields: %+v", o)
			}
		}
	})
}

// FuzzParseItems: getOrderItems answers never panic, and lines that each have an id, a
// quantity and a SKU or ASIN map to a document when one has a quantity.
func FuzzParseItems(f *testing.F) {
	f.Add([]byte(`{"payload":{"AmazonOrderId":"1","OrderItems":[{"ASIN":"B","SellerSKU":"S","OrderItemId":"1","QuantityOrdered":2,"ItemPrice":{"CurrencyCode":"USD","Amount":"1.00"}}]}}`))
	f.Add([]byte(`{"payload":{"OrderItems":[{"OrderItemId":"1","QuantityOrdered":0,"SellerSKU":"S"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		items, _, err := parseItems(body)
		if err != nil {
			return
		}
		shippable := false
		for _, it := range items {
			if it.OrderItemID == "" || it.QuantityOrdered == nil || *it.QuantityOrdered < 0 || it.SellerSKU == "" && it.ASIN == "" {
				return
			}
			shippable = shippable || *it.QuantityOrdered > 0
		}
		for _, status := range []string{"Pending", "Shipped", "Canceled"} {
			if _, err := document("ch", order{AmazonOrderID: "1", PurchaseDate: "x", OrderStatus: status}, items); err != nil && shippable {
				t.Fatalf("lines with quantities did not map: %v", err)
			}
		}
	})
}

// FuzzReport: feed processing reports never panic, and every result is of a listing of the
// batch.
func FuzzReport(f *testing.F) {
	f.Add([]byte(`{"header":{"sellerId":"S","version":"2.0","feedId":"1"},"issues":[{"messageId":1,"sku":"A","code":"1","severity":"ERROR","message":"m"}],"summary":{},"items":[{"sku":"B","fulfillmentAvailability":[{"fulfillmentChannelCode":"DEFAULT","quantity":2}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var rep report
		if json.Unmarshal(body, &rep) != nil {
			return
		}
		for sku, r := range rep.results([]connectors.QuantityPush{{ChannelSKU: "A", Quantity: 2}}) {
			if sku != "A" || r.ChannelSKU != "A" || r.OK && r.ChannelQuantity != 2 {
				t.Fatalf("result %q %+v, not the batch's listing at its quantity", sku, r)
			}
		}
	})
}

// TestPackageReference: a shipment's packageReferenceId is a positive number (Amazon takes
// no other), the same for the same shipment, another for another.
func TestPackageReference(t *testing.T) {
	t.Parallel()
	ids := []string{"0b7c5d7e-1f52-4c1e-9a7e-2f1f7c9b1a01", "0b7c5d7e-1f52-4c1e-9a7e-2f1f7c9b1a02", "ship-1", ""}
	seen := map[string]string{}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			got := packageReference(id)
			if n, err := strconv.ParseUint(got, 10, 31); err != nil || n == 0 {
				t.Errorf("packageReference(%q) = %q, want a positive number under 2^31", id, got)
			}
			if again := packageReference(id); again != got {
				t.Errorf("packageReference(%q) = %q then %q, want the same", id, got, again)
			}
			if other, ok := seen[got]; ok {
				t.Errorf("packageReference(%q) = packageReference(%q) = %q", id, other, got)
			}
			seen[got] = id
		})
	}
}

// TestAPIBase: the host is the marketplace's region's (an EU and a Far East marketplace
// among them); the channel's endpoints.api wins; a marketplace Amazon does not list, without
// endpoints.api, is refused naming marketplace_id.
func TestAPIBase(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, marketplace, api, want, err string }{
		{"United States", "ATVPDKIKX0DER", "", "https://sellingpartnerapi-na.amazon.com", ""},
		{"Germany", "A1PA6795UKMFR9", "", "https://sellingpartnerapi-eu.amazon.com", ""},
		{"United Kingdom", "A1F83G8C2ARO7P", "", "https://sellingpartnerapi-eu.amazon.com", ""},
		{"Japan", "A1VC38T7YXB528", "", "https://sellingpartnerapi-fe.amazon.com", ""},
		{"Australia", "A39IBJ37TRP1C6", "", "https://sellingpartnerapi-fe.amazon.com", ""},
		{"endpoints.api wins", "A1VC38T7YXB528", "http://127.0.0.1:9999", "http://127.0.0.1:9999", ""},
		{"unknown", "M1", "", "", "marketplace_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &connectors.Session{Credentials: credentials{MarketplaceID: tt.marketplace}, Endpoints: connectors.Endpoints{API: tt.api}}
			got, err := apiBase(s)
			if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("apiBase = %q, %v; want %q, an error naming %q", got, err, tt.want, tt.err)
			}
		})
	}
}

// TestGunzip: a GZIP report is decompressed; a body that is not GZIP, or one past maxReport
// decompressed, is refused.
func TestGunzip(t *testing.T) {
	t.Parallel()
	zip := func(b []byte) []byte {
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		_, _ = zw.Write(b)
		_ = zw.Close()
		return out.Bytes()
	}
	tests := []struct {
		name string
		in   []byte
		want string
		err  string
	}{
		{"report", zip([]byte(`{"issues":[]}`)), `{"issues":[]}`, ""},
		{"not GZIP", []byte(`{"issues":[]}`), "", "not GZIP"},
		{"too large", zip(make([]byte, maxReport+1)), "", "refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := gunzip(tt.in)
			if string(got) != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("gunzip = %.40q, %v; want %q, an error saying %q", got, err, tt.want, tt.err)
			}
		})
	}
}

// TestResume: the connector's page token carries Amazon's NextToken or the first page's
// LastUpdatedAfter and the orders done; read back, it skips them unless the page changed
// (then none); Amazon's own token is a resume of nothing done; a broken one is refused.
func TestResume(t *testing.T) {
	t.Parallel()
	page := []order{{AmazonOrderID: "A"}, {AmazonOrderID: "B"}, {AmazonOrderID: "C"}}
	tests := []struct {
		name, token string
		skip        int
		err         bool
	}{
		{"first page", resume{Since: "2026-01-01T00:00:00Z", Offset: 2, Last: "B"}.token(), 2, false},
		{"next page", resume{Next: "AmazonNext==", Offset: 1, Last: "A"}.token(), 1, false},
		{"page changed", resume{Next: "AmazonNext==", Offset: 2, Last: "A"}.token(), 0, false},
		{"Amazon's token", "AmazonNext==", 0, false},
		{"broken", resumePrefix + "%%%", 0, true},
		{"neither page", resume{Offset: 1, Last: "A"}.token(), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := parseResume(tt.token)
			if (err != nil) != tt.err {
				t.Fatalf("parseResume: %v, want an error: %v", err, tt.err)
			}
			if got := r.skip(page); err == nil && got != tt.skip {
				t.Errorf("skip = %d, want %d", got, tt.skip)
			}
		})
	}
}

// TestAmounts: the order's currency and amounts from Amazon's, exact to the cent; a Canceled
// order's lines have what is not shipped cancelled, a shipped quantity is quantity_shipped.
func TestAmounts(t *testing.T) {
	t.Parallel()
	usd := func(a string) *money { return &money{CurrencyCode: "USD", Amount: a} }
	two, one := int64(2), int64(1)
	items := []orderItem{
		{SellerSKU: "A", OrderItemID: "1", QuantityOrdered: &two, QuantityShipped: 1, ItemPrice: usd("39.98"), ItemTax: usd("3.20"),
			ShippingPrice: usd("4.99"), ShippingTax: usd("0.40"), ShippingDiscount: usd("4.99"), PromotionDiscount: usd("2.00")},
		{SellerSKU: "B", OrderItemID: "2", QuantityOrdered: &one, ItemPrice: usd("0.10"), ItemTax: usd("0.01")},
	}
	tests := []struct {
		name, status string
		total        *money
		want         map[string]any
		cancelled    [2]any
		err          string
	}{
		{"computed total", "PartiallyShipped", nil, map[string]any{"currency": "USD", "subtotal": 40.08, "shipping_cost": 4.99, "tax": 3.61,
			"discount": 6.99, "total": 41.69}, [2]any{nil, nil}, ""},
		{"Amazon's total", "Unshipped", usd("41.69"), map[string]any{"currency": "USD", "total": 41.69}, [2]any{nil, nil}, ""},
		{"cancelled", "Canceled", usd("41.69"), map[string]any{"currency": "USD"}, [2]any{1.0, 1.0}, ""},
		{"two currencies", "Unshipped", &money{CurrencyCode: "EUR", Amount: "41.69"}, nil, [2]any{}, "another in EUR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			raw, err := document("ch", order{AmazonOrderID: "1", PurchaseDate: "2026-01-01T00:00:00Z", LastUpdateDate: "2026-01-02T00:00:00Z",
				OrderStatus: tt.status, OrderTotal: tt.total}, items)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("document: %v, want an error saying %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			_ = json.Unmarshal(raw, &doc)
			for k, v := range tt.want {
				if doc[k] != v {
					t.Errorf("%s = %v, want %v", k, doc[k], v)
				}
			}
			lines := doc["items"].([]any)
			first, second := lines[0].(map[string]any), lines[1].(map[string]any)
			if got := [2]any{first["quantity_cancelled"], second["quantity_cancelled"]}; got != tt.cancelled {
				t.Errorf("quantity_cancelled %v, want %v", got, tt.cancelled)
			}
			if first["quantity_shipped"] != 1.0 || second["quantity_shipped"] != nil {
				t.Errorf("quantity_shipped %v, %v; want 1 and none", first["quantity_shipped"], second["quantity_shipped"])
			}
		})
	}
}
