package orders

import (
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

// TestFilterValue: the status filters of GET /orders and of the
// fulfillments, which share it: case and surrounding spaces do not matter,
// both spellings of cancelled are accepted, anything else is invalid naming
// the filter and its values.
func TestFilterValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw string
		want      string
		wantErr   string
	}{
		{"sb_status", "open", StatusOpen, ""},
		{"sb_status", " Open ", StatusOpen, ""},
		{"sb_status", "canceled", StatusCancelled, ""},
		{"sb_status", "CANCELLED", StatusCancelled, ""},
		{"sb_status", "shipped", "", "sb_status must be one of open, completed, canceled"},
		{"sb_payment_status", "partial", Partial, ""},
		{"shipment_status", " none", None, ""},
		{"shipment_status", "", "", "shipment_status must be one of all, partial, none"},
	}
	for _, tt := range tests {
		t.Run(tt.name+"="+tt.raw, func(t *testing.T) {
			t.Parallel()
			got, err := filterValue(tt.name, tt.raw)
			if tt.wantErr != "" {
				e, ok := errs.As(err)
				if !ok || e.Kind != errs.KindInvalid || e.Message != tt.wantErr {
					t.Fatalf("filterValue(%q, %q) err = %v, want invalid %q", tt.name, tt.raw, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("filterValue(%q, %q) = %q, %v; want %q", tt.name, tt.raw, got, err, tt.want)
			}
		})
	}
}
