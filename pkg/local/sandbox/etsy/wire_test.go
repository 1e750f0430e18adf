package etsy

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/testenv"
)

// schema is the part of an OpenAPI schema the test reads.
type schema struct {
	Properties map[string]schema `json:"properties"`
	Items      *schema           `json:"items"`
}

// TestWireMatchesModel: every JSON name of the sandbox's wire types is a property of the
// schema of Etsy's OpenAPI document the type stands for (the updateListingInventory body's
// for the Update types), so that the sandbox reads and answers what Etsy does, whatever the
// connector's types say.
func TestWireMatchesModel(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(testenv.ChannelModel(t, "etsy/3.0.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]schema `json:"schemas"`
		} `json:"components"`
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema schema `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	update := doc.Paths["/v3/application/listings/{listing_id}/inventory"]["put"].RequestBody.Content["application/json"].Schema
	product := *update.Properties["products"].Items
	named := doc.Components.Schemas
	for _, tc := range []struct {
		v   any
		doc schema
	}{
		{Money{}, named["Money"]}, {Receipt{}, named["ShopReceipt"]}, {Transaction{}, named["ShopReceiptTransaction"]},
		{Shipment{}, named["ShopReceiptShipment"]}, {Refund{}, named["ShopRefund"]}, {Receipts{}, named["ShopReceipts"]},
		{Inventory{}, named["ListingInventory"]}, {Product{}, named["ListingInventoryProduct"]},
		{Offering{}, named["ListingInventoryProductOffering"]}, {PropertyValue{}, named["ListingPropertyValue"]},
		{Listing{}, named["ShopListingWithAssociations"]}, {Listings{}, named["ShopListingsWithAssociations"]},
		{ShopAnswer{}, named["Shop"]}, {Payments{}, named["Payments"]}, {Payment{}, named["Payment"]},
		{PaymentAdjustment{}, named["PaymentAdjustment"]}, {PaymentAdjustmentItem{}, named["PaymentAdjustmentItem"]},
		{UpdateInventory{}, update}, {UpdateProduct{}, product},
		{UpdatePropertyValue{}, *product.Properties["property_values"].Items},
		{UpdateOffering{}, *product.Properties["offerings"].Items},
	} {
		typ := reflect.TypeOf(tc.v)
		t.Run(typ.Name(), func(t *testing.T) {
			if len(tc.doc.Properties) == 0 {
				t.Fatal("no such schema in Etsy's document")
			}
			for i := range typ.NumField() {
				name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
				if _, ok := tc.doc.Properties[name]; !ok {
					t.Errorf("%s: %q is no property of Etsy's schema", typ.Field(i).Name, name)
				}
			}
		})
	}
}
