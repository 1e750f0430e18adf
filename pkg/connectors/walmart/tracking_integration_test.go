package walmart_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/walmart"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
)

// placeAndImport places an order of lines lines of quantity each, imports and acknowledges
// it, and returns its purchase order id.
func placeAndImport(t *testing.T, f *fixture, lines, quantity int) string {
	t.Helper()
	f.sb.AddItem(seller, "SKU-T", 50)
	o, err := sandbox.PlaceOrder(ctx(t, time.Minute), f.sb.URL, sandbox.OrderRequest{ChannelUUID: f.Ch.UUID, SKU: "SKU-T", Lines: lines, Quantity: quantity})
	if err != nil {
		t.Fatal(err)
	}
	pollAll(t, f, f.Runtime(10*time.Second), 3)
	f.Inbox.TakeDocs()
	return o.ID
}

// post posts a tracking through a session of the channel.
func post(t *testing.T, f *fixture, tr connectors.Tracking) error {
	t.Helper()
	s, err := f.Runtime(10*time.Second).Session(ctx(t, time.Minute), f.Ch)
	if err != nil {
		t.Fatal(err)
	}
	return walmart.Connector.PostTracking(ctx(t, time.Minute), s, tr)
}

// lineStates are the statuses of each line of the seller's order: "status qty carrier
// method", joined.
func lineStates(t *testing.T, f *fixture, po string) []string {
	t.Helper()
	o, ok := f.sb.Order(seller, po)
	if !ok {
		t.Fatalf("no order %s", po)
	}
	var out []string
	for _, l := range o.OrderLines.OrderLine {
		var parts []string
		for _, st := range l.OrderLineStatuses.OrderLineStatus {
			p := st.Status + " " + st.StatusQuantity.Amount
			if ti := st.TrackingInfo; ti != nil {
				p += " " + ti.CarrierName.Carrier + ti.CarrierName.OtherCarrier + " " + ti.MethodCode
			}
			parts = append(parts, p)
		}
		out = append(out, strings.Join(parts, ", "))
	}
	return out
}

// TestPartialShipment: a shipment of some lines (and part of one) sends those lines only,
// with Walmart's carrier and the method code its method says; the others stay to ship.
func TestPartialShipment(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	f := newFixture(t)
	po := placeAndImport(t, f, 3, 2)
	err := post(t, f, connectors.Tracking{DisplayRef: po, ShipmentID: "S-1", CarrierName: "FedEx", CarrierNameGiven: "Federal Express",
		TrackingNumber: "7712345678", ShippingMethod: "2Day", ShippedAt: time.Now().UTC().Format(time.RFC3339),
		Items: []connectors.TrackingItem{{OrderItemRef: "1", Quantity: 2}, {OrderItemRef: "3", Quantity: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	got, want := lineStates(t, f, po), []string{"Shipped 2 FedEx Express", "Acknowledged 2", "Acknowledged 1, Shipped 1 FedEx Express"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lines after a partial shipment: %q, want %q", got, want)
	}
	var body walmart.Shipment
	for _, x := range f.Rec.Exchanges() {
		if x.Request.Method == http.MethodPost && strings.HasSuffix(x.Request.URL.Path, "/shipping") {
			_ = json.Unmarshal(x.Body, &body)
		}
	}
	var sent []string
	for _, l := range body.OrderShipment.OrderLines.OrderLine {
		sent = append(sent, l.LineNumber+"x"+l.OrderLineStatuses.OrderLineStatus[0].StatusQuantity.Amount)
	}
	if fmt.Sprint(sent) != "[1x2 3x1]" {
		t.Errorf("the shipping update sent lines %v, want [1x2 3x1]", sent)
	}
}

// TestOtherCarrier: a carrier outside Walmart's list goes as otherCarrier (the name given)
// with the tracking URL and a method code; Walmart refuses one without a tracking URL, and
// the push fails with Walmart's message.
func TestOtherCarrier(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	f := newFixture(t)
	po := placeAndImport(t, f, 2, 1)
	base := connectors.Tracking{DisplayRef: po, CarrierName: "Other", CarrierNameGiven: "Bob's Couriers", TrackingNumber: "BOB-1",
		ShippingMethod: "Next Day", ShippedAt: time.Now().UTC().Format(time.RFC3339)}
	noURL := base
	noURL.ShipmentID, noURL.Items = "S-0", []connectors.TrackingItem{{OrderItemRef: "2", Quantity: 1}}
	if err := post(t, f, noURL); err == nil || !strings.Contains(err.Error(), "trackingURL is required with otherCarrier") {
		t.Errorf("otherCarrier without a tracking URL: %v, want Walmart's refusal", err)
	}
	withURL := base
	withURL.ShipmentID, withURL.TrackingURL = "S-1", "https://bobs.example/track/BOB-1"
	withURL.Items = []connectors.TrackingItem{{OrderItemRef: "1", Quantity: 1}}
	if err := post(t, f, withURL); err != nil {
		t.Fatal(err)
	}
	if got, want := lineStates(t, f, po), []string{"Shipped 1 Bob's Couriers OneDay", "Acknowledged 1"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lines: %q, want %q", got, want)
	}
}
