package inbox

import (
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/shipments"
	"github.com/multisell/multisell/pkg/wire"
)

const (
	channel  = "01a20a0a-6645-73de-87f0-333b52416f8c"
	shipment = "01a20a0b-0000-7000-8000-000000000001"
)

func TestParse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		wantType   string
		wantOrders int
	}{
		{"order without type", `{"channel_uuid":"` + channel + `","display_ref":"1"}`, wire.TypeOrder, 1},
		{"order with type", `{"type":"order","display_ref":"1"}`, wire.TypeOrder, 1},
		{"array of orders", `[{"display_ref":"1"},{"display_ref":"2"}]`, wire.TypeOrder, 2},
		{"listing", `{"type":"listing","channel_uuid":"` + channel + `","channel_sku":"A","listing_ref":"B01","channel_quantity":"4"}`, wire.TypeListing, 0},
		{"result ok", `{"type":"listing.result","channel_uuid":"` + channel + `","channel_sku":"A","version":3,"ok":true,"channel_quantity":4}`, wire.TypeListingResult, 0},
		{"result failed", `{"type":"listing.result","channel_uuid":"` + channel + `","channel_sku":"A","version":"3","ok":false,"error":"throttled"}`, wire.TypeListingResult, 0},
		{"result with a listing ref", `{"type":"listing.result","channel_uuid":"` + channel + `","channel_sku":"A","version":3,"ok":true,"listing_ref":"gid://shopify/InventoryItem/1"}`, wire.TypeListingResult, 0},
		{"result off", `{"type":"listing.result","channel_uuid":"` + channel + `","channel_sku":"A","version":3,"ok":false,"error":"FBA","off":"fulfilled by Amazon"}`, wire.TypeListingResult, 0},
		{"result off empty", `{"type":"listing.result","channel_uuid":"` + channel + `","channel_sku":"A","version":3,"ok":true,"off":"","listing_ref":null}`, wire.TypeListingResult, 0},
		{"retry", `{"type":"listing.retry","channel_uuid":"` + channel + `","channel_sku":"A","version":3,"attempt":1}`, listings.TypeRetry, 0},
		{"shipment result ok", `{"type":"shipment.result","channel_uuid":"` + channel + `","shipment_id":"` + shipment + `","ok":true}`, wire.TypeShipmentResult, 0},
		{"shipment result failed", `{"type":"shipment.result","channel_uuid":"` + channel + `","shipment_id":"` + shipment + `","ok":"false","error":"bad carrier"}`, wire.TypeShipmentResult, 0},
		{"shipment retry", `{"type":"shipment.retry","shipment_id":"` + shipment + `","attempt":"2"}`, shipments.TypeRetry, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := Parse(tc.body)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if m.Type != tc.wantType || len(m.Orders) != tc.wantOrders {
				t.Errorf("Parse = %s with %d orders, want %s with %d", m.Type, len(m.Orders), tc.wantType, tc.wantOrders)
			}
			if tc.wantType == wire.TypeShipmentResult && (m.ShipmentResult.ShipmentID != shipment || m.ShipmentResult.ChannelUUID != channel) {
				t.Errorf("shipment result = %+v", m.ShipmentResult)
			}
			if tc.wantType == shipments.TypeRetry && (m.ShipmentRetry.ShipmentID != shipment || m.ShipmentRetry.Attempt != 2) {
				t.Errorf("shipment retry = %+v", m.ShipmentRetry)
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	t.Parallel()
	key := `"channel_uuid":"` + channel + `","channel_sku":"A"`
	cases := []struct {
		name, body string
		want       errs.Kind
	}{
		{"not JSON", `{"type":`, errs.KindMalformed},
		{"a string", `"hello"`, errs.KindMalformed},
		{"empty", ``, errs.KindMalformed},
		{"bad array", `[1,`, errs.KindMalformed},
		{"unknown type", `{"type":"listing.delete"}`, errs.KindInvalid},
		{"type not a string", `{"type":{}}`, errs.KindInvalid},
		{"listing without channel", `{"type":"listing","channel_sku":"A"}`, errs.KindInvalid},
		{"listing without sku", `{"type":"listing","channel_uuid":"` + channel + `"}`, errs.KindInvalid},
		{"listing with control characters", `{"type":"listing","channel_uuid":"` + channel + `","channel_sku":"A\u0007"}`, errs.KindInvalid},
		{"listing with a long sku", `{"type":"listing","channel_uuid":"` + channel + `","channel_sku":"` + strings.Repeat("x", 256) + `"}`, errs.KindInvalid},
		{"listing with a negative quantity", `{"type":"listing",` + key + `,"channel_quantity":-1}`, errs.KindInvalid},
		{"result without version", `{"type":"listing.result",` + key + `,"ok":true}`, errs.KindInvalid},
		{"result with version 0", `{"type":"listing.result",` + key + `,"version":0,"ok":true}`, errs.KindInvalid},
		{"result without ok", `{"type":"listing.result",` + key + `,"version":1}`, errs.KindInvalid},
		{"result with ok a number", `{"type":"listing.result",` + key + `,"version":1,"ok":2}`, errs.KindInvalid},
		{"result with a fractional quantity", `{"type":"listing.result",` + key + `,"version":1,"ok":true,"channel_quantity":1.5}`, errs.KindInvalid},
		{"result with a listing ref too long", `{"type":"listing.result",` + key + `,"version":1,"ok":true,"listing_ref":"` + strings.Repeat("r", 256) + `"}`, errs.KindInvalid},
		{"result with a control character in the listing ref", `{"type":"listing.result",` + key + `,"version":1,"ok":true,"listing_ref":"a\u0007b"}`, errs.KindInvalid},
		{"result with off true", `{"type":"listing.result",` + key + `,"version":1,"ok":false,"off":true}`, errs.KindInvalid},
		{"result with off too long", `{"type":"listing.result",` + key + `,"version":1,"ok":false,"off":"` + strings.Repeat("o", 1025) + `"}`, errs.KindInvalid},
		{"result with a newline in off", `{"type":"listing.result",` + key + `,"version":1,"ok":false,"off":"a\nb"}`, errs.KindInvalid},
		{"retry without attempt", `{"type":"listing.retry",` + key + `,"version":1}`, errs.KindInvalid},
		{"shipment result without channel", `{"type":"shipment.result","shipment_id":"` + shipment + `","ok":true}`, errs.KindInvalid},
		{"shipment result without shipment", `{"type":"shipment.result","channel_uuid":"` + channel + `","ok":true}`, errs.KindInvalid},
		{"shipment result with an odd shipment id", `{"type":"shipment.result","channel_uuid":"` + channel + `","shipment_id":"../x","ok":true}`, errs.KindInvalid},
		{"shipment result without ok", `{"type":"shipment.result","channel_uuid":"` + channel + `","shipment_id":"` + shipment + `"}`, errs.KindInvalid},
		{"shipment result with error an object", `{"type":"shipment.result","channel_uuid":"` + channel + `","shipment_id":"` + shipment + `","ok":false,"error":{}}`, errs.KindInvalid},
		{"shipment retry without attempt", `{"type":"shipment.retry","shipment_id":"` + shipment + `"}`, errs.KindInvalid},
		{"shipment retry with attempt 0", `{"type":"shipment.retry","shipment_id":"` + shipment + `","attempt":0}`, errs.KindInvalid},
		{"duplicate key", `{"type":"listing",` + key + `,"channel_sku":"B"}`, errs.KindInvalid},
		{"duplicate type", `{"type":"listing","type":"order",` + key + `}`, errs.KindInvalid},
		{"shipment result with a control character in its error", `{"type":"shipment.result","channel_uuid":"` + channel + `","shipment_id":"` + shipment + `","ok":false,"error":"a\u0000"}`, errs.KindInvalid},
		{"too large", `{"type":"order","x":"` + strings.Repeat("x", 1<<20) + `"}`, errs.KindTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse(tc.body)
			if got := errs.KindOf(err); err == nil || got != tc.want {
				t.Errorf("Parse = %v (%v), want kind %v", err, got, tc.want)
			}
		})
	}
}

// FuzzParse: no body makes Parse panic, and what it accepts has a type it
// knows.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"type":"listing","channel_uuid":"` + channel + `","channel_sku":"A"}`,
		`[{"display_ref":"1"}]`, `{"type":"listing.result","version":1,"ok":true}`, `{}`, `[`, `null`,
		`{"type":"shipment.result","channel_uuid":"` + channel + `","shipment_id":"` + shipment + `","ok":true}`,
		`{"type":"shipment.retry","shipment_id":"` + shipment + `","attempt":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		m, err := Parse(body)
		if err != nil {
			if errs.KindOf(err) == errs.KindInternal {
				t.Fatalf("Parse(%q) = an internal error %v", body, err)
			}
			return
		}
		switch m.Type {
		case wire.TypeOrder, wire.TypeListing, wire.TypeListingResult, listings.TypeRetry, wire.TypeShipmentResult, shipments.TypeRetry:
		default:
			t.Fatalf("Parse(%q) accepted type %q", body, m.Type)
		}
	})
}
