package carriers

import "testing"

func TestNormalizeCarrier(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		want  string
		known bool
	}{
		{"USPS", "USPS", true},
		{"usps", "USPS", true},
		{"United States Postal Service", "USPS", true},
		{"Fed-Ex", "FedEx", true},
		{"federal express", "FedEx", true},
		{"DHL eCommerce", "DHL eCommerce", true},
		{"hermes", "Evri", true},
		{"other", "Other", true},
		{"Bob's Couriers", "Other", false},
		{"", "Other", false},
		{"航空便", "Other", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, known := Normalize(tt.in)
			if got != tt.want || known != tt.known {
				t.Errorf("Normalize(%q) = %q, %v; want %q, %v", tt.in, got, known, tt.want, tt.known)
			}
		})
	}
}
