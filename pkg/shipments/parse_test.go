package shipments

import (
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
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
		body, err := lenient.DecodeObject(s)
		if err != nil {
			return
		}
		req, err := ParseShipment(body)
		if err != nil && errs.KindOf(err) == errs.KindInternal {
			t.Fatalf("error %v is not the client's", err)
		}
		if err == nil && (len(req.Items) == 0 || req.Seq < 1) {
			t.Fatalf("request without items or order: %+v", req)
		}
	})
}
