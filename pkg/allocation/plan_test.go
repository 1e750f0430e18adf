package allocation

import (
	"reflect"
	"testing"
)

func TestPlan(t *testing.T) {
	t.Parallel()
	whs := []string{"A", "B", "C"}
	tests := []struct {
		name  string
		lines []Line
		stock Stock
		want  map[string][]Alloc
	}{
		{
			name:  "split example of docs/orders.md: A and B hold 1 each, an order for 2",
			lines: []Line{{Ref: "1", SKU: "123", Need: 2}},
			stock: Stock{{"123", "A"}: 1, {"123", "B"}: 1},
			want:  map[string][]Alloc{"1": {{"A", 1}, {"B", 1}}},
		},
		{
			name:  "whole order from the first warehouse that holds it all",
			lines: []Line{{Ref: "1", SKU: "x", Need: 1}, {Ref: "2", SKU: "y", Need: 2}},
			stock: Stock{{"x", "A"}: 5, {"y", "A"}: 1, {"x", "B"}: 1, {"y", "B"}: 2, {"x", "C"}: 9, {"y", "C"}: 9},
			want:  map[string][]Alloc{"1": {{"B", 1}}, "2": {{"B", 2}}},
		},
		{
			name:  "no warehouse holds it all: each line by priority",
			lines: []Line{{Ref: "1", SKU: "x", Need: 2}, {Ref: "2", SKU: "y", Need: 2}},
			stock: Stock{{"x", "A"}: 2, {"y", "B"}: 1, {"y", "C"}: 5},
			want:  map[string][]Alloc{"1": {{"A", 2}}, "2": {{"B", 1}, {"C", 1}}},
		},
		{
			name:  "what no warehouse holds stays unassigned",
			lines: []Line{{Ref: "1", SKU: "x", Need: 5}},
			stock: Stock{{"x", "A"}: 1, {"x", "C"}: 2},
			want:  map[string][]Alloc{"1": {{"A", 1}, {"C", 2}}},
		},
		{
			name:  "two lines of one SKU share the stock",
			lines: []Line{{Ref: "1", SKU: "x", Need: 2}, {Ref: "2", SKU: "x", Need: 2}},
			stock: Stock{{"x", "A"}: 3, {"x", "B"}: 3},
			want:  map[string][]Alloc{"1": {{"A", 2}}, "2": {{"A", 1}, {"B", 1}}},
		},
		{
			name:  "whole order counts both lines of one SKU",
			lines: []Line{{Ref: "1", SKU: "x", Need: 2}, {Ref: "2", SKU: "x", Need: 2}},
			stock: Stock{{"x", "A"}: 3, {"x", "B"}: 4},
			want:  map[string][]Alloc{"1": {{"B", 2}}, "2": {{"B", 2}}},
		},
		{
			name:  "a line without inventory SKU is never allocated",
			lines: []Line{{Ref: "1", SKU: "", Need: 1}, {Ref: "2", SKU: "x", Need: 1}},
			stock: Stock{{"x", "B"}: 1},
			want:  map[string][]Alloc{"2": {{"B", 1}}},
		},
		{
			name:  "nothing needed",
			lines: []Line{{Ref: "1", SKU: "x", Need: 0}},
			stock: Stock{{"x", "A"}: 1},
			want:  map[string][]Alloc{},
		},
		{
			name:  "no stock anywhere",
			lines: []Line{{Ref: "1", SKU: "x", Need: 1}},
			stock: Stock{},
			want:  map[string][]Alloc{},
		},
		{
			name:  "negative availability is no stock",
			lines: []Line{{Ref: "1", SKU: "x", Need: 1}},
			stock: Stock{{"x", "A"}: -3, {"x", "B"}: 1},
			want:  map[string][]Alloc{"1": {{"B", 1}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := len(tt.stock)
			got := Plan(tt.lines, whs, tt.stock)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Plan = %v, want %v", got, tt.want)
			}
			if len(tt.stock) != before {
				t.Errorf("Plan changed its stock argument")
			}
		})
	}
}

// TestPlanNeverOverAllocates checks, over many generated cases, that no
// warehouse gives more than it has and no line gets more than it needs.
func TestPlanNeverOverAllocates(t *testing.T) {
	t.Parallel()
	whs := []string{"A", "B", "C"}
	skus := []string{"x", "y"}
	for seed := range 500 {
		var lines []Line
		stock := Stock{}
		for i := range 1 + seed%4 {
			lines = append(lines, Line{Ref: string(rune('a' + i)), SKU: skus[(seed+i)%2], Need: (seed >> i) % 5})
		}
		for i, wh := range whs {
			for j, sku := range skus {
				stock[Record{sku, wh}] = (seed*7 + i*3 + j) % 4
			}
		}
		got := Plan(lines, whs, stock)
		used := map[Record]int{}
		for _, l := range lines {
			sum := 0
			for _, a := range got[l.Ref] {
				if a.Qty <= 0 {
					t.Fatalf("seed %d: non-positive allocation %v", seed, a)
				}
				sum += a.Qty
				used[Record{l.SKU, a.Warehouse}] += a.Qty
			}
			if sum > l.Need {
				t.Fatalf("seed %d: line %s gets %d > need %d", seed, l.Ref, sum, l.Need)
			}
		}
		for r, n := range used {
			if n > stock[r] {
				t.Fatalf("seed %d: %v gives %d > %d", seed, r, n, stock[r])
			}
		}
	}
}
