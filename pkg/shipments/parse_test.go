package shipments

import (
	"errors"
	"testing"

	"github.com/multisell/multisell/pkg/api"
)

// FuzzParseShipment: any body parses to a request or a 4xx, never a panic.
func FuzzParseShipment(f *testing.F) {
	for _, s := range []string{
		`{"shipment":{"sb_order_seq":1,"carrier_name":"UPS","tracking_number":"1","items":[{"sku":"S","quantity":1}]}}`,
		`{"shipment":{"sb_order_seq":"x","items":[]}}`, `{"shipment":{"items":"S"}}`, `{"shipment":[]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body, err := api.DecodeObject(s)
		if err != nil {
			return
		}
		req, err := parseShipment(body)
		var ae *api.Error
		if err != nil && !errors.As(err, &ae) {
			t.Fatalf("non-API error %v", err)
		}
		if err == nil && (len(req.Items) == 0 || req.Seq < 1) {
			t.Fatalf("request without items or order: %+v", req)
		}
	})
}
