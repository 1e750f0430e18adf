package etsy

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/wire"
)

func TestParseCredentials(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, raw string
		account   string // "" when refused
	}{
		{"valid", `{"client_id":"k","client_secret":"s","refresh_token":"1.r","shop_id":"42"}`, "Etsy shop 42"},
		{"shop id not a number", `{"client_id":"k","client_secret":"s","refresh_token":"1.r","shop_id":"my-shop"}`, ""},
		{"shop id zero", `{"client_id":"k","client_secret":"s","refresh_token":"1.r","shop_id":"0"}`, ""},
		{"missing shop", `{"client_id":"k","client_secret":"s","refresh_token":"1.r"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := Connector.ParseCredentials([]byte(tc.raw))
			if tc.account == "" {
				if !errs.KindOf(err).Client() {
					t.Errorf("got %v, want an invalid error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := Connector.MarketplaceAccount(c); got != tc.account {
				t.Errorf("account %q, want %q", got, tc.account)
			}
		})
	}
}

func TestAmountOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		in   Money
		want string // "" for an error
	}{
		{"cents", Money{1999, 100, "USD"}, "19.99"},
		{"whole", Money{5, 1, "JPY"}, "5"},
		{"dinar", Money{12345, 1000, "KWD"}, "12.345"},
		{"negative", Money{-250, 100, "USD"}, "-2.5"},
		{"divisor 3", Money{1, 3, "USD"}, ""},
		{"divisor 0", Money{1, 0, "USD"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := amountOf(&tc.in)
			if tc.want == "" {
				if err == nil {
					t.Errorf("got %s, want an error", got)
				}
				return
			}
			if err != nil || got.String() != tc.want {
				t.Errorf("got %s %v, want %s", got, err, tc.want)
			}
		})
	}
}

// receipt is a paid receipt of two transactions of 19.99 and 2 x 5.00 in USD, with 3.00
// shipping, 1.00 discount and 2.40 tax.
func receipt() ShopReceipt {
	usd := func(c int64) *Money { return &Money{c, 100, "USD"} }
	paid := int64(1_700_000_100)
	return ShopReceipt{ReceiptID: 77, Status: "paid", IsPaid: true, CreatedTimestamp: 1_700_000_000, UpdatedTimestamp: 1_700_000_200,
		Name: "Buyer", CountryISO: "US", TotalPrice: usd(2999), DiscountAmt: usd(100), TotalShippingCost: usd(300), Grandtotal: usd(3439),
		Transactions: []ShopReceiptTransaction{
			{TransactionID: 1, SKU: "A", Quantity: 1, Price: usd(1999), PaidTimestamp: &paid},
			{TransactionID: 2, SKU: "B", Quantity: 2, Price: usd(500)}}}
}

func TestDocument(t *testing.T) {
	t.Parallel()
	shipped := int64(1_700_000_150)
	for _, tc := range []struct {
		name    string
		change  func(*ShopReceipt)
		check   func(d wire.OrderDocument) string
		refused bool
		refunds refunds
	}{
		{"paid", func(*ShopReceipt) {}, func(d wire.OrderDocument) string {
			if d.Subtotal != "29.99" || d.Discount != "1" || d.ShippingCost != "3" || d.Tax != "2.4" || d.Total != "34.39" || d.Currency != "USD" {
				return "totals"
			}
			if d.PaymentStatus != "all" || d.PaidAt != "2023-11-14T22:15:00Z" || d.Items[1].Price != "10" || d.Items[1].UnitPrice != "5" {
				return "payment or line price"
			}
			return ""
		}, false, nil},
		{"one line shipped", func(r *ShopReceipt) {
			r.Transactions[0].ShippedTimestamp = &shipped
			r.Shipments = []ShopReceiptShipment{{CarrierName: "usps", TrackingCode: "9400"}}
		}, func(d wire.OrderDocument) string {
			if d.Items[0].QuantityShipped != 1 || d.Items[0].TrackingNumber != "9400" || d.Items[1].QuantityShipped != 0 {
				return "shipped"
			}
			return ""
		}, false, nil},
		{"canceled", func(r *ShopReceipt) { r.Status = "canceled" }, func(d wire.OrderDocument) string {
			if d.CancelledAt == "" || d.Items[1].QuantityCancelled != 2 {
				return "cancelled"
			}
			return ""
		}, false, nil},
		{"fully refunded", func(r *ShopReceipt) { r.Status = "fully refunded" }, func(d wire.OrderDocument) string {
			if d.CancelledAt != "" || d.Items[0].QuantityCancelled != 1 {
				return "refunded"
			}
			return ""
		}, false, nil},
		{"one unit of a line refunded", func(r *ShopReceipt) { r.Status = "partially refunded" }, func(d wire.OrderDocument) string {
			if d.Items[0].QuantityCancelled != 0 || d.Items[1].QuantityCancelled != 1 || d.CancelledAt != "" {
				return "partly refunded"
			}
			return ""
		}, false, refunds{2: 500, 1: 300}},
		{"no sku", func(r *ShopReceipt) { r.Transactions[0].SKU, r.Transactions[0].ListingID = "", 5 }, func(d wire.OrderDocument) string {
			if d.Items[0].SKU != "etsy-listing-5-0" {
				return "sku"
			}
			return ""
		}, false, nil},
		{"two currencies", func(r *ShopReceipt) { r.Grandtotal.CurrencyCode = "EUR" }, nil, true, nil},
		{"inexact", func(r *ShopReceipt) { r.Grandtotal.Divisor = 7 }, nil, true, nil},
		{"no transactions", func(r *ShopReceipt) { r.Transactions = nil }, nil, true, nil},
		{"no id", func(r *ShopReceipt) { r.ReceiptID = 0 }, nil, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := receipt()
			tc.change(&r)
			raw, err := document("ch", r, tc.refunds)
			if tc.refused {
				if err == nil {
					t.Errorf("got %s, want a refusal", raw)
				}
				return
			}
			var d wire.OrderDocument
			if err != nil || json.Unmarshal(raw, &d) != nil {
				t.Fatalf("%v %s", err, raw)
			}
			if what := tc.check(d); what != "" {
				t.Errorf("%s wrong: %s", what, raw)
			}
		})
	}
}

func TestPosition(t *testing.T) {
	t.Parallel()
	rs := func(stamps ...int64) []ShopReceipt {
		out := make([]ShopReceipt, len(stamps))
		for i, s := range stamps {
			out[i] = ShopReceipt{ReceiptID: int64(i + 1), UpdatedTimestamp: s}
		}
		return out
	}
	start := position{since: 1_700_000_000}
	for _, tc := range []struct {
		name string
		from position
		page []ShopReceipt
		want string
	}{
		{"keyed by the last change", start, rs(1_700_000_001, 1_700_000_002, 1_700_000_002), "1700000002:0:2,3"},
		{"the same second goes on", position{since: 1_700_000_002, seen: []int64{9}}, rs(1_700_000_002, 1_700_000_003), "1700000003:0:2"},
		{"a page of one second", position{since: 1_700_000_002, offset: 3, seen: []int64{9}}, rs(1_700_000_002, 1_700_000_002), "1700000002:5:1,2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.from.next(tc.page).token()
			if got != tc.want {
				t.Errorf("next %s, want %s", got, tc.want)
			}
			back, err := parsePosition(got, time.Time{})
			if err != nil || back.token() != got {
				t.Errorf("token %s reads back as %+v %v", got, back, err)
			}
		})
	}
	for _, bad := range []string{"x", "1:2", "1700000000:-1:", "1700000000:0:a", "5:0:"} {
		if _, err := parsePosition(bad, time.Time{}); err == nil {
			t.Errorf("page token %q read", bad)
		}
	}
}

func TestConsentURL(t *testing.T) {
	t.Parallel()
	raw, err := Connector.ConsentURL(connectors.App{ClientID: "key", RedirectURI: "https://example.com/cb"},
		connectors.ConsentRequest{State: "st", CodeChallenge: "abc"})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(raw)
	q := u.Query()
	if !strings.HasPrefix(raw, ConsentPage+"?") || q.Get("response_type") != "code" || q.Get("client_id") != "key" ||
		q.Get("redirect_uri") != "https://example.com/cb" || q.Get("state") != "st" || q.Get("code_challenge") != "abc" ||
		q.Get("code_challenge_method") != "S256" || q.Get("scope") != strings.Join(Scopes, " ") {
		t.Errorf("consent URL %s", raw)
	}
	if _, err := Connector.ConsentURL(connectors.App{}, connectors.ConsentRequest{State: "st"}); err == nil {
		t.Error("a consent without PKCE was made")
	}
}

func TestCarrierName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"USPS", "usps"}, {"Royal Mail", "royal-mail"}, {"Canada Post", "canada-post"}, {"Evri", "hermes"},
		{"Amazon Logistics", "other"}, {"Other", "other"}, {"Pigeon Express", "other"},
	} {
		if got := CarrierName(tc.in); got != tc.want {
			t.Errorf("CarrierName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTokenAnswer(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	tok, user, err := tokenAnswer(200, []byte(`{"access_token":"123.abc","token_type":"Bearer","expires_in":3600,"refresh_token":"123.def"}`), now)
	if err != nil || tok.Value != "123.abc" || tok.Refresh != "123.def" || user != "123" || !tok.ExpiresAt.Equal(now.Add(time.Hour)) {
		t.Errorf("got %+v %q %v", tok, user, err)
	}
	_, _, err = tokenAnswer(400, []byte(`{"error":"invalid_grant","error_description":"refresh_token is revoked"}`), now)
	var ae *connectors.AuthError
	if !errors.As(err, &ae) {
		t.Errorf("invalid_grant: got %v, want an AuthError", err)
	}
}

// FuzzReceipts: no answer of getShopReceipts makes the parser panic; every document it
// makes names the channel.
func FuzzReceipts(f *testing.F) {
	r, _ := json.Marshal(ShopReceipts{Count: 1, Results: []ShopReceipt{receipt()}})
	f.Add(r)
	f.Add([]byte(`{"results":[{"receipt_id":1,"created_timestamp":1,"updated_timestamp":1,"transactions":[{"transaction_id":1,"quantity":1,"price":{"amount":1,"divisor":0}}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := parseReceipts("ch", position{since: minTimestamp}, body, nil)
		if err != nil {
			return
		}
		for _, o := range page.Orders {
			var d wire.OrderDocument
			if json.Unmarshal(o.Document, &d) != nil || d.ChannelUUID != "ch" {
				t.Errorf("document %s", o.Document)
			}
		}
	})
}

// FuzzPageToken: a page token either reads back as itself or is refused.
func FuzzPageToken(f *testing.F) {
	f.Add("1700000002:5:1,2")
	f.Add("")
	f.Fuzz(func(t *testing.T, tok string) {
		p, err := parsePosition(tok, time.Unix(minTimestamp, 0))
		if err != nil || tok == "" {
			return
		}
		if _, err := parsePosition(p.token(), time.Time{}); err != nil {
			t.Errorf("token %q read as %+v, which does not read back: %v", tok, p, err)
		}
	})
}

// FuzzInventory: no inventory answer makes the change panic.
func FuzzInventory(f *testing.F) {
	f.Add([]byte(`{"products":[{"sku":"A","offerings":[{"quantity":1,"is_enabled":true,"price":{"amount":100,"divisor":100}}],"property_values":[]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var inv ListingInventory
		if json.Unmarshal(body, &inv) != nil {
			return
		}
		_, _, _ = change(&inv, []connectors.QuantityPush{{ChannelSKU: "A", Quantity: 3}})
	})
}
