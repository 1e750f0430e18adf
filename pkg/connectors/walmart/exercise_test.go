package walmart_test

import (
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/walmart"
)

// exercise makes the connector send each of its requests: an order's import and
// acknowledgement, a shipping update, single updates and a feed with its statuses.
func exercise(t *testing.T, f *fixture) {
	t.Helper()
	po := placeAndImport(t, f, 1, 1)
	if err := post(t, f, connectors.Tracking{DisplayRef: po, ShipmentID: "S-1", CarrierName: "UPS", CarrierNameGiven: "UPS",
		TrackingNumber: "1Z999", ShippingMethod: "Ground", ShippedAt: time.Now().UTC().Format(time.RFC3339),
		Items: []connectors.TrackingItem{{OrderItemRef: "1", Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	few := listings(f, "EX", 3, 1)
	checkResults(t, f, few, pushAll(t, f, few, len(few)))
	many := listings(f, "EXF", walmart.FeedThreshold+5, 1)
	checkResults(t, f, many, pushAll(t, f, many, len(many)))
}
