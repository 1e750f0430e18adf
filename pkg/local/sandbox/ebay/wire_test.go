package ebay

import (
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/multisell/multisell/pkg/testenv"
)

// TestWireMatchesModels: every JSON name of the sandbox's wire types is a property of the
// schema of eBay's document the type stands for, so that the sandbox reads and writes what
// eBay does, whatever the connector's types say.
func TestWireMatchesModels(t *testing.T) {
	t.Parallel()
	docs := map[string]string{"fulfillment": "ebay/sell_fulfillment_v1_oas3.yaml", "inventory": "ebay/sell_inventory_v1_oas3.json"}
	schemas := map[string]openapi3.Schemas{}
	for name, file := range docs {
		doc, err := openapi3.NewLoader().LoadFromFile(testenv.ChannelModel(t, file))
		if err != nil {
			t.Fatalf("load %s: %v", file, err)
		}
		schemas[name] = doc.Components.Schemas
	}
	tests := []struct {
		v      any
		doc    string
		schema string
	}{
		{Amount{}, "fulfillment", "Amount"},
		{OrderSearchPagedCollection{}, "fulfillment", "OrderSearchPagedCollection"},
		{Order{}, "fulfillment", "Order"},
		{CancelStatus{}, "fulfillment", "CancelStatus"},
		{PricingSummary{}, "fulfillment", "PricingSummary"},
		{PaymentSummary{}, "fulfillment", "PaymentSummary"},
		{Payment{}, "fulfillment", "Payment"},
		{FulfillmentStartInstruction{}, "fulfillment", "FulfillmentStartInstruction"},
		{ShippingStep{}, "fulfillment", "ShippingStep"},
		{ExtendedContact{}, "fulfillment", "ExtendedContact"},
		{PhoneNumber{}, "fulfillment", "PhoneNumber"},
		{Address{}, "fulfillment", "Address"},
		{LineItem{}, "fulfillment", "LineItem"},
		{Tax{}, "fulfillment", "Tax"},
		{EbayCollectAndRemitTax{}, "fulfillment", "EbayCollectAndRemitTax"},
		{LineItemRefund{}, "fulfillment", "LineItemRefund"},
		{ShippingFulfillmentDetails{}, "fulfillment", "ShippingFulfillmentDetails"},
		{LineItemReference{}, "fulfillment", "LineItemReference"},
		{ShippingFulfillmentPagedCollection{}, "fulfillment", "ShippingFulfillmentPagedCollection"},
		{ShippingFulfillment{}, "fulfillment", "ShippingFulfillment"},
		{Error{}, "fulfillment", "Error"},
		{BulkPriceQuantity{}, "inventory", "BulkPriceQuantity"},
		{PriceQuantity{}, "inventory", "PriceQuantity"},
		{OfferPriceQuantity{}, "inventory", "OfferPriceQuantity"},
		{Offers{}, "inventory", "Offers"},
		{EbayOfferDetailsWithAll{}, "inventory", "EbayOfferDetailsWithAll"},
		{ListingDetails{}, "inventory", "ListingDetails"},
		{ShipToLocationAvailability{}, "inventory", "ShipToLocationAvailability"},
		{BulkPriceQuantityResponse{}, "inventory", "BulkPriceQuantityResponse"},
		{PriceQuantityResponse{}, "inventory", "PriceQuantityResponse"},
		{BulkMigrateListing{}, "inventory", "BulkMigrateListing"},
		{MigrateListing{}, "inventory", "MigrateListing"},
		{BulkMigrateListingResponse{}, "inventory", "BulkMigrateListingResponse"},
		{MigrateListingResponse{}, "inventory", "MigrateListingResponse"},
		{InventoryItemListing{}, "inventory", "InventoryItemListing"},
		{Error{}, "inventory", "Error"},
	}
	for _, tt := range tests {
		typ := reflect.TypeOf(tt.v)
		t.Run(typ.Name()+" "+tt.doc, func(t *testing.T) {
			ref := schemas[tt.doc][tt.schema]
			if ref == nil || ref.Value == nil {
				t.Fatalf("no schema %s in the %s document", tt.schema, tt.doc)
			}
			for f := range typ.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if _, ok := ref.Value.Properties[name]; !ok {
					t.Errorf("%s.%s: %q is no property of %s", typ.Name(), f.Name, name, tt.schema)
				}
			}
		})
	}
}
