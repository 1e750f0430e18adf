package walmart

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/wire"
)

// TestParseCredentials: client_id, client_secret and the market US (in any case); another
// market is refused naming the field; the account is the market and the client id.
func TestParseCredentials(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		want      string // the account named, "" for a refusal
	}{
		{"US", `{"client_id":" c-1 ","client_secret":"s","market":"US"}`, "US\x1fc-1"},
		{"us", `{"client_id":"c-1","client_secret":"s","market":"us"}`, "US\x1fc-1"},
		{"CA", `{"client_id":"c-1","client_secret":"s","market":"CA"}`, ""},
		{"no market", `{"client_id":"c-1","client_secret":"s"}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cr, err := Connector.ParseCredentials([]byte(tc.raw))
			if tc.want == "" {
				if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "market") {
					t.Fatalf("got %v, want an invalid error naming market", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := Connector.MarketplaceAccount(cr); got != tc.want {
				t.Errorf("account %q, want %q", got, tc.want)
			}
		})
	}
}

// order is a Walmart order of three units on line 1 (one Created, one Shipped with UPS, one
// Cancelled) and one unit on line 2 (Refund after shipping), with an item price, a shipping
// charge, a discount and taxes.
const order = `{"list":{"meta":{"totalCount":1,"limit":1,"nextCursor":"?limit=1&hasMoreElements=true&soIndex=5&poIndex=1"},
"elements":{"order":[{"purchaseOrderId":"1796277083022","customerOrderId":"5281956426648","customerEmailId":"x@relay.walmart.com",
"orderDate":1568466571000,"shippingInfo":{"phone":"3155598681","estimatedDeliveryDate":1569438000000,"estimatedShipDate":1568700000000,
"methodCode":"Value","postalAddress":{"name":"Kathryn Cole","address1":"3258B Warners rd","city":"Warners","state":"NY","postalCode":"13164","country":"USA"}},
"orderLines":{"orderLine":[
{"lineNumber":"1","item":{"productName":"Laundry Bag","sku":"test1"},"charges":{"charge":[
 {"chargeType":"PRODUCT","chargeName":"ItemPrice","chargeAmount":{"currency":"USD","amount":30.03},"tax":{"taxName":"Tax1","taxAmount":{"currency":"USD","amount":2.4}}},
 {"chargeType":"SHIPPING","chargeName":"Shipping","chargeAmount":{"currency":"USD","amount":4.99},"tax":{"taxName":"Tax1","taxAmount":{"currency":"USD","amount":0.4}}},
 {"chargeType":"PRODUCT","chargeName":"Discount","chargeAmount":{"currency":"USD","amount":-3}}]},
 "orderLineQuantity":{"unitOfMeasurement":"EACH","amount":"3"},"statusDate":1568466647000,
 "orderLineStatuses":{"orderLineStatus":[{"status":"Created","statusQuantity":{"unitOfMeasurement":"EACH","amount":"1"}},
 {"status":"Shipped","statusQuantity":{"unitOfMeasurement":"EACH","amount":"1"},"trackingInfo":{"shipDateTime":1568466647000,"carrierName":{"carrier":"UPS"},"methodCode":"Standard","trackingNumber":"1Z1"}},
 {"status":"Cancelled","statusQuantity":{"unitOfMeasurement":"EACH","amount":"1"}}]}},
{"lineNumber":"2","item":{"productName":"Metronome","sku":"TEST-02"},"charges":{"charge":[
 {"chargeType":"PRODUCT","chargeName":"ItemPrice","chargeAmount":{"currency":"USD","amount":10}}]},
 "orderLineQuantity":{"unitOfMeasurement":"EACH","amount":"1"},"statusDate":1568527247000,
 "orderLineStatuses":{"orderLineStatus":[{"status":"Refund","statusQuantity":{"unitOfMeasurement":"EACH","amount":"1"},"trackingInfo":{"shipDateTime":1568466647000,"carrierName":{"otherCarrier":"Bob's"},"methodCode":"Standard","trackingNumber":"B1"}}]}}
]}}]}}}`

// TestDocument: an order's money (exact, with its currency), ship-to, last change and each
// line's quantities shipped and cancelled, carrier and tracking, and status.
func TestDocument(t *testing.T) {
	t.Parallel()
	page, err := parseOrders("chan-1", []byte(order))
	if err != nil || len(page.Orders) != 1 || len(page.Refused) != 0 {
		t.Fatalf("page %+v, %v", page, err)
	}
	if page.Next != "?limit=1&hasMoreElements=true&soIndex=5&poIndex=1" {
		t.Errorf("next %q, want Walmart's nextCursor", page.Next)
	}
	o := page.Orders[0]
	if want := time.UnixMilli(1568527247000); !o.UpdatedAt.Equal(want) {
		t.Errorf("updated %v, want the latest statusDate %v", o.UpdatedAt, want)
	}
	var d wire.OrderDocument
	if err := json.Unmarshal(o.Document, &d); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, got, want string }{
		{"money", fmt.Sprint(d.Currency, " ", d.Subtotal, " ", d.Discount, " ", d.ShippingCost, " ", d.Tax, " ", d.Total), "USD 40.03 3 4.99 2.8 44.82"},
		{"ship to", fmt.Sprint(d.ShippingContactName, "|", d.ShippingCountryCode, "|", d.RequestedShippingService, "|", d.ShipByDate), "Kathryn Cole|US|Value|2019-09-17T06:00:00.000Z"},
		{"ordered", d.OrderedAt + " " + d.PaymentStatus + " " + d.CancelledAt, "2019-09-14T13:09:31.000Z all "},
		{"line 1", lineText(d.Items[0]), "1 test1 3 Created 1 1 UPS 1Z1 30.03 10.01 2.8 34.82"},
		{"line 2", lineText(d.Items[1]), "2 TEST-02 1 Refund 1 0 Bob's B1 10 10 0 10"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if awaitsAck(o.Document) {
		t.Error("an order with a line shipped awaits no acknowledgement")
	}
}

// lineText is a document line's fields, joined.
func lineText(it wire.OrderItem) string {
	return fmt.Sprint(it.OrderItemRef, " ", it.SKU, " ", it.Quantity, " ", it.Status, " ", it.QuantityShipped, " ",
		it.QuantityCancelled, " ", it.CarrierName, " ", it.TrackingNumber, " ", it.Price, " ", it.UnitPrice, " ", it.Tax, " ", it.Total)
}

// TestBadOrders: an order without lines, with a line without a SKU or quantity, or with
// charges in two currencies is refused alone; an unreadable answer fails the page.
func TestBadOrders(t *testing.T) {
	t.Parallel()
	good := `{"purchaseOrderId":"2","orderDate":1,"orderLines":{"orderLine":[{"lineNumber":"1","item":{"sku":"A"},"orderLineQuantity":{"amount":"1"}}]}}`
	tests := []struct {
		name, orders string
		refused      int
	}{
		{"no lines", `{"purchaseOrderId":"1","orderDate":1,"orderLines":{"orderLine":[]}}`, 1},
		{"no sku", `{"purchaseOrderId":"1","orderDate":1,"orderLines":{"orderLine":[{"lineNumber":"1","item":{},"orderLineQuantity":{"amount":"1"}}]}}`, 1},
		{"quantity", `{"purchaseOrderId":"1","orderDate":1,"orderLines":{"orderLine":[{"lineNumber":"1","item":{"sku":"A"},"orderLineQuantity":{"amount":"x"}}]}}`, 1},
		{"an amount too precise", `{"purchaseOrderId":"1","orderDate":1,"orderLines":{"orderLine":[{"lineNumber":"1","item":{"sku":"A"},"orderLineQuantity":{"amount":"1"},
			"charges":{"charge":[{"chargeType":"PRODUCT","chargeAmount":{"currency":"USD","amount":1.0000001}}]}}]}}`, 1},
		{"two currencies", `{"purchaseOrderId":"1","orderDate":1,"orderLines":{"orderLine":[
			{"lineNumber":"1","item":{"sku":"A"},"orderLineQuantity":{"amount":"1"},"charges":{"charge":[{"chargeType":"PRODUCT","chargeAmount":{"currency":"USD","amount":1}}]}},
			{"lineNumber":"2","item":{"sku":"A"},"orderLineQuantity":{"amount":"1"},"charges":{"charge":[{"chargeType":"PRODUCT","chargeAmount":{"currency":"CAD","amount":1}}]}}]}}`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			page, err := parseOrders("c", []byte(`{"list":{"elements":{"order":[`+tc.orders+`,`+good+`]}}}`))
			if err != nil || len(page.Refused) != tc.refused || len(page.Orders) != 1 || page.Orders[0].Ref != "2" {
				t.Errorf("page %+v, %v; want %d refused and the good order", page, err, tc.refused)
			}
		})
	}
	if _, err := parseOrders("c", []byte(`{"list":`)); err == nil {
		t.Error("an unreadable answer: no error")
	}
}

// TestPageQuery: the first page asks by lastModifiedStartDate; a next page is Walmart's
// nextCursor as a query; a token that is no cursor is an error.
func TestPageQuery(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		page, want string
		bad        bool
	}{
		{"", "lastModifiedStartDate=2026-11-01T10%3A00%3A00.000Z&limit=100", false},
		{"?limit=100&hasMoreElements=true&soIndex=5&poIndex=18", "hasMoreElements=true&limit=100&poIndex=18&soIndex=5", false},
		{"limit=100", "", true},
		{"?", "", true},
	}
	for _, tc := range tests {
		got, err := pageQuery(connectors.OrdersQuery{Since: since, Page: tc.page})
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("page %q: %q, %v; want %q (error %v)", tc.page, got, err, tc.want, tc.bad)
		}
	}
}

// TestMethodCode: Walmart's method codes from a shipment's shipping method.
func TestMethodCode(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"": "Standard", "Ground": "Standard", "Home Delivery": "Standard", "oneday": "OneDay", "Next Day Air": "OneDay",
		"Priority Overnight": "OneDay", "2Day": "Express", "2nd Day Air": "Express", "Priority Mail": "Express",
		"Media Mail": "Value", "SurePost": "Value", "Freight LTL": "Freight", "White Glove": "WhiteGlove", "value": "Value",
	}
	for in, want := range tests {
		if got := MethodCode(in); got != want {
			t.Errorf("MethodCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCarrierName: a carrier of Walmart's list goes as carrier with Walmart's name, any other
// as otherCarrier with the name given.
func TestCarrierName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, given string
		want        CarrierName
	}{
		{"UPS", "ups", CarrierName{Carrier: "UPS"}},
		{"DHL eCommerce", "DHL Global Mail", CarrierName{Carrier: "DHL Ecommerce - US"}},
		{"Royal Mail", "Royal Mail", CarrierName{Carrier: "Royal Mail"}},
		{"Other", "Bob's Couriers", CarrierName{OtherCarrier: "Bob's Couriers"}},
		{"Evri", "Evri", CarrierName{OtherCarrier: "Evri"}},
	}
	for _, tc := range tests {
		if got := carrierName(connectors.Tracking{CarrierName: tc.name, CarrierNameGiven: tc.given}); got != tc.want {
			t.Errorf("%s (%s): %+v, want %+v", tc.name, tc.given, got, tc.want)
		}
	}
}

// TestGatewayErrors: Walmart's error bodies in each of their shapes.
func TestGatewayErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		`{"errors":{"error":[{"code":"A","description":"d"}]}}`: "A: d",
		`{"errors":[{"code":"B","info":"i"}]}`:                  "B (i)",
		`{"error":[{"code":"C"}]}`:                              "C",
		`not json`:                                              "not json",
	}
	for body, want := range tests {
		if got := errorMessage([]byte(body)); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
}
