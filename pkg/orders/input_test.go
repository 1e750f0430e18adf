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

// TestDocumentCurrencyAndAmounts: currency is three letters, stored in
// capitals (null clears it); amounts are exact decimals, refused when not
// a number or more precise than pkg/money keeps.
func TestDocumentCurrencyAndAmounts(t *testing.T) {
	t.Parallel()
	base := `{"channel_uuid":"c","display_ref":"1","ordered_at":"2024-01-01",%s"items":[{"order_item_ref":"1","sku":"S","quantity":1}]}`
	tests := []struct {
		name, extra string
		key         string
		want        string
		wantErr     string
	}{
		{"currency", `"currency":" gbp ",`, "currency", `"GBP"`, ""},
		{"currency null", `"currency":null,`, "currency", `null`, ""},
		{"currency of two letters", `"currency":"US",`, "", "", "currency must be an ISO 4217 code of three letters (USD)"},
		{"currency with a digit", `"currency":"U5D",`, "", "", "currency must be an ISO 4217 code of three letters (USD)"},
		{"amount", `"total":0.60,`, "total", `0.6`, ""},
		{"amount as text", `"total":"19.999",`, "total", `19.999`, ""},
		{"amount null", `"total":null,`, "total", `null`, ""},
		{"amount not a number", `"total":"lots",`, "", "", "total must be a number"},
		{"amount too precise", `"total":0.0000001,`, "", "", "total must have at most 6 decimal places and be at most 1000000000000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := parseDocument(json.RawMessage(fill(base, tc.extra, "")))
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Errorf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(d.Fields[tc.key])
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("%s = %s, want %s", tc.key, got, tc.want)
			}
		})
	}
}
