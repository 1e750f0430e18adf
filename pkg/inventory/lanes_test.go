package inventory

import (
	"fmt"
	"testing"
)

// TestLane: an adjustment's message group is that of its first record, the same for every
// adjustment of that record; an account's records spread over exactly Lanes groups, and
// another account's adjustments never share them.
func TestLane(t *testing.T) {
	t.Parallel()
	adj := func(account string, skus ...string) Adjustment {
		a := Adjustment{Account: account}
		for _, s := range skus {
			a.Items = append(a.Items, Item{SKU: s, Warehouse: "wh"})
		}
		return a
	}
	tests := []struct {
		name string
		a, b Adjustment
		same bool
	}{
		{"same first record", adj("acct_a", "SKU-1", "SKU-2"), adj("acct_a", "SKU-1", "SKU-9"), true},
		{"same records in another order", adj("acct_a", "SKU-1", "SKU-2"), adj("acct_a", "SKU-2", "SKU-1"), lane(adj("acct_a", "SKU-1")) == lane(adj("acct_a", "SKU-2"))},
		{"another account", adj("acct_a", "SKU-1"), adj("acct_b", "SKU-1"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := lane(tt.a) == lane(tt.b); got != tt.same {
				t.Errorf("same lane: got %v, want %v (%s, %s)", got, tt.same, lane(tt.a), lane(tt.b))
			}
		})
	}
	t.Run("an account's lanes", func(t *testing.T) {
		t.Parallel()
		groups := map[string]bool{}
		for i := range 2000 {
			groups[lane(adj("acct_a", fmt.Sprintf("SKU-%d", i)))] = true
		}
		if got, want := len(groups), Lanes; got != want {
			t.Errorf("2,000 records in %d groups, want %d", got, want)
		}
	})
}
