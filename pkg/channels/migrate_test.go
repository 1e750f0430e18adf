package channels

import (
	"encoding/json"
	"testing"

	"github.com/multisell/multisell/pkg/lenient"
)

// TestParseMigrations: 1 to 25 eBay ItemIDs, none twice; anything else is refused.
func TestParseMigrations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		wantErr    bool
	}{
		{"one", `{"listing_refs":["110000000001"]}`, false},
		{"missing", `{}`, true},
		{"empty", `{"listing_refs":[]}`, true},
		{"not digits", `{"listing_refs":["offer:1"]}`, true},
		{"twice", `{"listing_refs":["1","1"]}`, true},
		{"not strings", `{"listing_refs":[{}]}`, true},
		{"too many", `{"listing_refs":["1","2","3","4","5","6","7","8","9","10","11","12","13","14","15","16","17","18","19","20","21","22","23","24","25","26"]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var body lenient.Object
			if err := json.Unmarshal([]byte(tt.body), &body); err != nil {
				t.Fatal(err)
			}
			_, err := ParseMigrations(body)
			if got := err != nil; got != tt.wantErr {
				t.Errorf("error %v, want an error: %v", err, tt.wantErr)
			}
		})
	}
}
