package amazon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// rulesSeller is the seller of the rules' tests, its access token and its order.
const (
	rulesSeller = "S1"
	rulesToken  = "Atza|rules"
	rulesOrder  = "113-0000001-0000001"
)

// newRules is a started sandbox with the seller, a token of its and an Unshipped order of
// two lines of SKU-1.
func newRules(t *testing.T) *Amazon {
	t.Helper()
	a, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	a.AddSeller(rulesSeller, "ATVPDKIKX0DER", "client", "secret", "refresh")
	a.PutListing(rulesSeller, Listing{SKU: "SKU-1", Quantity: 4})
	a.Lock()
	a.Permanent(rulesToken, rulesSeller)
	a.Unlock()
	a.PutOrder(rulesSeller, StoredOrder{Order: Order{AmazonOrderID: rulesOrder, PurchaseDate: "2026-01-01T00:00:00Z", OrderStatus: "Unshipped"},
		Items: []OrderItem{{ASIN: "B1", SellerSKU: "SKU-1", OrderItemID: "1", QuantityOrdered: 2}}})
	return a
}

// send makes one call of the sandbox with the access token tok and answers its status and
// body.
func send(t *testing.T, a *Amazon, method, path, tok string, in any) (int, string) {
	t.Helper()
	var body io.Reader
	if in != nil {
		b, _ := json.Marshal(in)
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-amz-access-token", tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// TestPackageReferenceID: confirmShipment takes only a positive numeric packageReferenceId
// (Amazon's 400 InvalidInput otherwise), and the same one again is the same package.
func TestPackageReferenceID(t *testing.T) {
	t.Parallel()
	a := newRules(t)
	confirm := func(ref string) (int, string) {
		return send(t, a, "POST", "/orders/v0/orders/"+rulesOrder+"/shipmentConfirmation", rulesToken, map[string]any{
			"marketplaceId": "ATVPDKIKX0DER", "packageDetail": map[string]any{"packageReferenceId": ref, "carrierCode": "UPS",
				"trackingNumber": "1Z", "shipDate": "2026-01-02T00:00:00Z", "orderItems": []any{map[string]any{"orderItemId": "1", "quantity": 1}}}})
	}
	tests := []struct {
		ref           string
		status        int
		confirmations int
	}{
		{"0b7c5d7e-1f52-4c1e-9a7e-2f1f7c9b1a01", http.StatusBadRequest, 0},
		{"0", http.StatusBadRequest, 0},
		{"-3", http.StatusBadRequest, 0},
		{"12345", http.StatusNoContent, 1},
		{"12345", http.StatusNoContent, 1},
		{"12346", http.StatusNoContent, 2},
	}
	for _, tt := range tests {
		status, body := confirm(tt.ref)
		if status != tt.status {
			t.Errorf("packageReferenceId %q: status %d (%s), want %d", tt.ref, status, body, tt.status)
		}
		if status == http.StatusBadRequest && !strings.Contains(body, `"code":"InvalidInput","message":"PackageReferenceId: is invalid, must be a positive numeric value"`) {
			t.Errorf("packageReferenceId %q: %s, want Amazon's InvalidInput", tt.ref, body)
		}
		if got := len(a.Confirmations(rulesSeller, rulesOrder)); got != tt.confirmations {
			t.Errorf("after packageReferenceId %q: %d confirmations, want %d", tt.ref, got, tt.confirmations)
		}
	}
}

// TestRestrictedDataToken: getOrders answers the ship-to name, street, phone and the buyer's
// e-mail only to a Restricted Data Token of getOrders with those data elements; a seller
// without the restricted role is refused the token (403), and without the listing role its
// patches (403), as Amazon answers a role the app lacks.
func TestRestrictedDataToken(t *testing.T) {
	t.Parallel()
	a := newRules(t)
	a.PutOrder(rulesSeller, StoredOrder{Order: Order{AmazonOrderID: rulesOrder, PurchaseDate: "2026-01-01T00:00:00Z", OrderStatus: "Unshipped",
		LastUpdateDate: "2026-01-01T00:00:00Z", ShippingAddress: &Address{Name: "Jane", AddressLine1: "1 Main St", Phone: "555", City: "Seattle"},
		BuyerInfo: &BuyerInfo{BuyerEmail: "jane@example.com"}}})
	rdt := func(elements ...string) string {
		status, body := send(t, a, "POST", "/tokens/2021-03-01/restrictedDataToken", rulesToken, map[string]any{
			"restrictedResources": []any{map[string]any{"method": "GET", "path": "/orders/v0/orders", "dataElements": elements}}})
		var out struct {
			Token string `json:"restrictedDataToken"`
		}
		_ = json.Unmarshal([]byte(body), &out)
		if status != http.StatusOK || out.Token == "" {
			t.Fatalf("createRestrictedDataToken: %d %s", status, body)
		}
		return out.Token
	}
	tests := []struct {
		name, token string
		want, not   []string
	}{
		{"access token", rulesToken, []string{`"City":"Seattle"`}, []string{"Jane", "1 Main St", "555", "jane@example.com"}},
		{"RDT of both", rdt("shippingAddress", "buyerInfo"), []string{"Jane", "1 Main St", "555", "jane@example.com"}, nil},
		{"RDT of the address", rdt("shippingAddress"), []string{"Jane", "1 Main St", "555"}, []string{"jane@example.com"}},
	}
	for _, tt := range tests {
		status, body := send(t, a, "GET", "/orders/v0/orders?MarketplaceIds=ATVPDKIKX0DER&LastUpdatedAfter=2025-01-01T00:00:00Z", tt.token, nil)
		if status != http.StatusOK {
			t.Fatalf("%s: getOrders %d %s", tt.name, status, body)
		}
		for _, w := range tt.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: %s lacks %s", tt.name, body, w)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(body, n) {
				t.Errorf("%s: %s shows %s", tt.name, body, n)
			}
		}
	}
	a.LackRole(rulesSeller, RoleRestricted, true)
	a.LackRole(rulesSeller, RoleListing, true)
	for _, c := range []struct{ method, path string }{
		{"POST", "/tokens/2021-03-01/restrictedDataToken"},
		{"PATCH", "/listings/2021-08-01/items/" + rulesSeller + "/SKU-1?marketplaceIds=ATVPDKIKX0DER"},
	} {
		status, body := send(t, a, c.method, c.path, rulesToken, map[string]any{})
		if status != http.StatusForbidden || !strings.Contains(body, `"code":"Unauthorized","message":"Access to requested resource is denied."}`) {
			t.Errorf("%s %s without the role: %d %s, want 403 Unauthorized without a word of the token", c.method, c.path, status, body)
		}
	}
	if status, _ := send(t, a, "GET", "/orders/v0/orders?MarketplaceIds=ATVPDKIKX0DER&LastUpdatedAfter=2025-01-01T00:00:00Z", rulesToken, nil); status != http.StatusOK {
		t.Errorf("getOrders without the listing and restricted roles: %d, want 200", status)
	}
}

// TestAvailabilityPatch: a replace of fulfillment_availability clears the handling time it
// does not carry; a merge keeps it, and sets it when it carries one.
func TestAvailabilityPatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		op    string
		value map[string]any
		days  int64 // -1: none
	}{
		{"replace", map[string]any{"fulfillment_channel_code": "DEFAULT", "quantity": 5}, -1},
		{"merge", map[string]any{"fulfillment_channel_code": "DEFAULT", "quantity": 5}, 2},
		{"merge", map[string]any{"fulfillment_channel_code": "DEFAULT", "quantity": 5, "lead_time_to_ship_max_days": 4}, 4},
		{"replace", map[string]any{"fulfillment_channel_code": "DEFAULT", "quantity": 5, "lead_time_to_ship_max_days": 6}, 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.op, tt.value), func(t *testing.T) {
			t.Parallel()
			a := newRules(t)
			two := int64(2)
			a.PutListing(rulesSeller, Listing{SKU: "SKU-1", Quantity: 1, HandlingDays: &two})
			status, body := send(t, a, "PATCH", "/listings/2021-08-01/items/"+rulesSeller+"/SKU-1?marketplaceIds=ATVPDKIKX0DER", rulesToken, map[string]any{
				"productType": "PRODUCT", "patches": []any{map[string]any{"op": tt.op, "path": "/attributes/fulfillment_availability", "value": []any{tt.value}}}})
			if status != http.StatusOK || !strings.Contains(body, `"status":"ACCEPTED"`) {
				t.Fatalf("patch: %d %s", status, body)
			}
			days, ok := a.HandlingDays(rulesSeller, "SKU-1")
			if !ok {
				days = -1
			}
			if q, _ := a.Quantity(rulesSeller, "SKU-1"); days != tt.days || q != 5 {
				t.Errorf("handling time %d, quantity %d; want %d, 5", days, q, tt.days)
			}
		})
	}
}

// TestAdminOrders: an order placed through AdminOrdersPath honours its lines, currency and
// Shipped in Amazon's representation; AdminLinesPath ships and cancels units of a line (409
// past what is left, 404 for an unknown order, 400 for a bad body).
func TestAdminOrders(t *testing.T) {
	t.Parallel()
	a := newRules(t)
	a.BindChannel(rulesSeller, "ch-1")
	c := context.Background()
	shipped, err := sandbox.PlaceOrder(c, a.URL, sandbox.OrderRequest{ChannelUUID: "ch-1", Lines: 2, Quantity: 2, Currency: "EUR", Shipped: true})
	if err != nil {
		t.Fatal(err)
	}
	var got *StoredOrder
	a.With(rulesSeller, func(s *Seller) { got = s.Orders[shipped.ID] })
	if got.Order.OrderStatus != "Shipped" || len(got.Items) != 2 || got.Items[1].QuantityShipped != 2 || got.Order.OrderTotal.CurrencyCode != "EUR" ||
		got.Order.OrderTotal.Amount != "79.96" || got.Items[0].ItemPrice.Amount != "39.98" || len(a.Confirmations(rulesSeller, shipped.ID)) != 1 {
		t.Errorf("shipped order %+v", got)
	}
	o, err := sandbox.PlaceOrder(c, a.URL, sandbox.OrderRequest{ChannelUUID: "ch-1", Lines: 2, Quantity: 2})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		change sandbox.LineChange
		ok     bool
		status string
	}{
		{sandbox.LineChange{ChannelUUID: "ch-1", OrderID: o.ID, Line: 1, Shipped: 1}, true, "PartiallyShipped"},
		{sandbox.LineChange{ChannelUUID: "ch-1", OrderID: o.ID, Line: 1, Shipped: 2}, false, "PartiallyShipped"},
		{sandbox.LineChange{ChannelUUID: "ch-1", OrderID: "nope", Line: 1, Shipped: 1}, false, "PartiallyShipped"},
		{sandbox.LineChange{ChannelUUID: "ch-1", OrderID: o.ID, Line: 2}, false, "PartiallyShipped"},
		{sandbox.LineChange{ChannelUUID: "ch-1", OrderID: o.ID, Line: 2, Cancelled: 2}, true, "PartiallyShipped"},
		{sandbox.LineChange{ChannelUUID: "ch-1", OrderID: o.ID, Line: 1, Shipped: 1}, true, "Shipped"},
	}
	for i, tt := range tests {
		err := sandbox.ChangeLine(c, a.URL, tt.change)
		a.With(rulesSeller, func(s *Seller) { got = s.Orders[o.ID] })
		if (err == nil) != tt.ok || got.Order.OrderStatus != tt.status {
			t.Errorf("change %d %+v: %v, status %s; want ok %v, %s", i+1, tt.change, err, got.Order.OrderStatus, tt.ok, tt.status)
		}
	}
	if got.Items[1].QuantityOrdered != 0 || got.Items[0].QuantityShipped != 2 {
		t.Errorf("lines %+v, want the second cancelled (no longer ordered), the first shipped", got.Items)
	}
}
