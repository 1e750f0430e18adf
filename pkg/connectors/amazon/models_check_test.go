package amazon_test

import (
	"testing"

	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestRequestsMatchModels: the models are beside the repository (else the test skips
// saying so, and the other tests log that their requests were not checked), and the
// checker every test runs on its requests refuses what the models do not allow.
func TestRequestsMatchModels(t *testing.T) {
	t.Parallel()
	for _, name := range append(modelFiles, feedSchema) {
		testenv.ChannelModel(t, name)
	}
	if !loadModels() {
		t.Fatal(modelsErr)
	}
	tests := []struct {
		name string
		req  amazonsb.Request
		ok   bool
	}{
		{"getOrders", amazonsb.Request{Op: "getOrders", Method: "GET", Path: "/orders/v0/orders", Query: "MarketplaceIds=A&LastUpdatedAfter=2026-01-01T00:00:00Z&MaxResultsPerPage=100"}, true},
		{"getOrders without MarketplaceIds", amazonsb.Request{Op: "getOrders", Method: "GET", Path: "/orders/v0/orders", Query: "LastUpdatedAfter=2026-01-01T00:00:00Z"}, false},
		{"getOrders unknown parameter", amazonsb.Request{Op: "getOrders", Method: "GET", Path: "/orders/v0/orders", Query: "MarketplaceIds=A&Since=x"}, false},
		{"getOrders page size not a number", amazonsb.Request{Op: "getOrders", Method: "GET", Path: "/orders/v0/orders", Query: "MarketplaceIds=A&MaxResultsPerPage=many"}, false},
		{"confirmShipment without carrierCode", amazonsb.Request{Op: "confirmShipment", Method: "POST", Path: "/orders/v0/orders/1/shipmentConfirmation",
			Body: []byte(`{"marketplaceId":"A","packageDetail":{"packageReferenceId":"1","trackingNumber":"T","shipDate":"2026-01-01T00:00:00Z","orderItems":[{"orderItemId":"1","quantity":1}]}}`)}, false},
		{"confirmShipment quantity a string", amazonsb.Request{Op: "confirmShipment", Method: "POST", Path: "/orders/v0/orders/1/shipmentConfirmation",
			Body: []byte(`{"marketplaceId":"A","packageDetail":{"packageReferenceId":"1","carrierCode":"UPS","trackingNumber":"T","shipDate":"2026-01-01T00:00:00Z","orderItems":[{"orderItemId":"1","quantity":"1"}]}}`)}, false},
		{"patch with a bad op", amazonsb.Request{Op: "patchListingsItem", Method: "PATCH", Path: "/listings/2021-08-01/items/S/K", Query: "marketplaceIds=A",
			Body: []byte(`{"productType":"PRODUCT","patches":[{"op":"set","path":"/attributes/x","value":[]}]}`)}, false},
		{"patch without marketplaceIds", amazonsb.Request{Op: "patchListingsItem", Method: "PATCH", Path: "/listings/2021-08-01/items/S/K",
			Body: []byte(`{"productType":"PRODUCT","patches":[{"op":"replace","path":"/attributes/x","value":[]}]}`)}, false},
		{"feed PATCH without productType", amazonsb.Request{Op: "uploadFeedDocument", Method: "PUT", Path: "/x",
			Body: []byte(`{"header":{"sellerId":"S","version":"2.0"},"messages":[{"messageId":1,"sku":"K","operationType":"PATCH","patches":[]}]}`)}, false},
		{"unknown path", amazonsb.Request{Op: "getOrders", Method: "GET", Path: "/orders/v1/orders"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkRequest(tt.req)
			if got := err == nil; got != tt.ok {
				t.Errorf("check: %v, want ok %v", err, tt.ok)
			}
		})
	}
}
