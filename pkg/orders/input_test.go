package orders

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/sku"
)

func TestDerive(t *testing.T) {
	t.Parallel()
	ts := "2024-01-01T00:00:00Z"
	tests := []struct {
		name                  string
		payment               string
		cancelled             *string
		items                 []Item
		status, shipmentState string
	}{
		{"nothing shipped", None, nil, []Item{{Quantity: 2}}, StatusOpen, None},
		{"part shipped", All, nil, []Item{{Quantity: 2, QuantityFulfilled: 1}}, StatusOpen, Partial},
		{"all shipped and paid", All, nil, []Item{{Quantity: 2, QuantityFulfilled: 2}}, StatusCompleted, All},
		{"all shipped, part paid", Partial, nil, []Item{{Quantity: 2, QuantityFulfilled: 2}}, StatusOpen, All},
		{"cancelled line counts as done", All, nil, []Item{{Quantity: 1, QuantityFulfilled: 1}, {Quantity: 3, CancelledAt: &ts}}, StatusCompleted, All},
		{"every line cancelled", All, nil, []Item{{Quantity: 1, CancelledAt: &ts}}, StatusCancelled, None},
		{"cancelled order", All, &ts, []Item{{Quantity: 2, QuantityFulfilled: 1}}, StatusCancelled, Partial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := Order{PaymentStatus: tt.payment, CancelledAt: tt.cancelled, Items: tt.items}
			for i := range o.Items {
				o.Items[i].Alloc = []WarehouseQty{{WarehouseUUID: "w", Quantity: 0}}
			}
			o.derive()
			if o.Status != tt.status || o.ShipmentStatus != tt.shipmentState {
				t.Errorf("derive = %s/%s, want %s/%s", o.Status, o.ShipmentStatus, tt.status, tt.shipmentState)
			}
			if o.Status != StatusOpen {
				for _, it := range o.Items {
					if it.Alloc != nil {
						t.Errorf("a %s order keeps allocations", o.Status)
					}
				}
			}
		})
	}
}

// FuzzParseDocument: any input is a document or a document error, never a
// panic nor another error, and a valid document has what import needs.
func FuzzParseDocument(f *testing.F) {
	for _, s := range []string{
		`{"channel_uuid":"c","display_ref":"r","ordered_at":"2024-01-01","items":[{"order_item_ref":"1","sku":"S","quantity":1}]}`,
		`{"channel_uuid":"c","display_ref":1,"ordered_at":"2024-01-01T00:00:00+02:00","paid_at":null,"items":[{"order_item_ref":1,"sku":"A/B C+#?","quantity":"2","cancelled_at":"2024-01-02"}]}`,
		`{"items":{}}`, `[]`, `null`, `{"ordered_at":5}`, `{"channel_uuid":"c","display_ref":"r","ordered_at":"2024-01-01","items":[{"order_item_ref":"1","sku":"\u0001","quantity":1}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := parseDocument(json.RawMessage(b))
		var de *docError
		if err != nil {
			if !errors.As(err, &de) {
				t.Fatalf("non-document error %v", err)
			}
			return
		}
		if d.ChannelUUID == "" || d.DisplayRef == "" || len(d.Items) == 0 {
			t.Fatalf("valid document lacks identity or items: %+v", d)
		}
		for _, it := range d.Items {
			if it.Quantity < 1 || !sku.Valid(it.SKU) {
				t.Fatalf("bad line accepted: %+v", it)
			}
		}
		if _, ok := isotime.Parse(d.OrderedAt); !ok {
			t.Fatalf("ordered_at %q", d.OrderedAt)
		}
	})
}
