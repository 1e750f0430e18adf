package amazon

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
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
