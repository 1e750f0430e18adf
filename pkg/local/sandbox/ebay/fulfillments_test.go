package ebay_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox/ebay"
)

// TestFulfillmentsBadInput: getShippingFulfillments of an order the seller does not have
// (unknown, odd or another seller's id) answers 400 with eBay's error 32100, as eBay's
// fulfillment model documents, and without a valid token 401.
func TestFulfillmentsBadInput(t *testing.T) {
	t.Parallel()
	sb, err := ebay.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	sb.AddSeller("client-1", "secret-1", "refresh-1", "EBAY_US")
	sb.AddSeller("client-2", "secret-2", "refresh-2", "EBAY_US")
	sb.PutOrder("client-2", ebay.NewOrder("20-00001-00001", "SKU-1", 1, time.Now()))
	token := accessToken(t, sb.URL, "client-1", "secret-1", "refresh-1")
	tests := []struct {
		name, order, token string
		wantStatus, wantID int
	}{
		{"unknown order", "20-99999-99999", token, http.StatusBadRequest, 32100},
		{"odd id", url.PathEscape("../x?<>"), token, http.StatusBadRequest, 32100},
		{"another seller's order", "20-00001-00001", token, http.StatusBadRequest, 32100},
		{"no valid token", "20-99999-99999", "not-a-token", http.StatusUnauthorized, 1001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequest(http.MethodGet, sb.URL+"/sell/fulfillment/v1/order/"+tt.order+"/shipping_fulfillment", nil)
			req.Header.Set("Authorization", "Bearer "+tt.token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body ebay.ErrorBody
			_ = json.NewDecoder(resp.Body).Decode(&body)
			got := [2]int{resp.StatusCode, 0}
			if len(body.Errors) > 0 {
				got[1] = body.Errors[0].ErrorID
			}
			if want := [2]int{tt.wantStatus, tt.wantID}; got != want {
				t.Errorf("status, errorId = %v, want %v", got, want)
			}
		})
	}
}

// accessToken is a user access token of the seller, from the sandbox's token endpoint.
func accessToken(t *testing.T, base, client, secret, refresh string) string {
	t.Helper()
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}
	req, _ := http.NewRequest(http.MethodPost, base+ebay.TokenPath, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(client, secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var a ebay.TokenAnswer
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || a.AccessToken == "" {
		t.Fatalf("token: status %d, %v", resp.StatusCode, err)
	}
	return a.AccessToken
}
