package etsy_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
)

// TestPostTracking: tracking reaches the receipt with Etsy's carrier name; a carrier Etsy
// does not list goes as other; the same tracking posted twice is one shipment; a second
// (partial) shipment adds its own.
func TestPostTracking(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s := f.session(t)
	for _, tc := range []struct {
		name, carrier string
		trackings     []string
		want          []sbx.Shipment
	}{
		{"listed carrier", "Royal Mail", []string{"RM1", "RM1"}, []sbx.Shipment{{CarrierName: "royal-mail", TrackingCode: "RM1"}}},
		{"unlisted carrier", "Other", []string{"AMZ1"}, []sbx.Shipment{{CarrierName: "other", TrackingCode: "AMZ1"}}},
		{"partial shipments", "USPS", []string{"9400A", "9400B", "9400A"},
			[]sbx.Shipment{{CarrierName: "usps", TrackingCode: "9400A"}, {CarrierName: "usps", TrackingCode: "9400B"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := f.sb.PlaceReceipt(shop, []sbx.Line{{SKU: "A", Quantity: 1, Cents: 1999}, {SKU: "B", Quantity: 2, Cents: 500}}, "USD", time.Now())
			for _, code := range tc.trackings {
				err := etsy.Connector.PostTracking(ctx(t, time.Minute), s, connectors.Tracking{DisplayRef: strconv.FormatInt(id, 10),
					ShipmentID: code, CarrierName: tc.carrier, TrackingNumber: code, Items: []connectors.TrackingItem{{OrderItemRef: "1", SKU: "A", Quantity: 1}}})
				if err != nil {
					t.Fatal(err)
				}
			}
			got := f.sb.Shipments(shop, id)
			if len(got) != len(tc.want) {
				t.Fatalf("shipments %+v, want %+v", got, tc.want)
			}
			for i, sh := range got {
				if sh.CarrierName != tc.want[i].CarrierName || sh.TrackingCode != tc.want[i].TrackingCode {
					t.Errorf("shipment %d: %s %s, want %s %s", i, sh.CarrierName, sh.TrackingCode, tc.want[i].CarrierName, tc.want[i].TrackingCode)
				}
			}
		})
	}
}
