package allocation

import (
	"fmt"
	"testing"
)

// BenchmarkPlan plans an order of 100 lines (100 SKUs) over 20 warehouses
// from the records that exist: each SKU stocked at two of them, so no
// warehouse holds the whole order and every line is filled by priority
// (the longer path), and one where the last warehouse holds it all.
func BenchmarkPlan(b *testing.B) {
	const nLines, nWarehouses = 100, 20
	whs := make([]string, nWarehouses)
	for i := range whs {
		whs[i] = fmt.Sprintf("wh-%02d", i)
	}
	lines := make([]Line, nLines)
	split := Stock{}
	for i := range lines {
		sku := fmt.Sprintf("SKU-%03d", i)
		lines[i] = Line{Ref: fmt.Sprint(i), SKU: sku, Need: 1 + i%3}
		split[Record{sku, whs[i%nWarehouses]}] = 1
		split[Record{sku, whs[(i+7)%nWarehouses]}] = 5
	}
	whole := Stock{}
	for r, n := range split {
		whole[r] = n
	}
	for _, l := range lines {
		whole[Record{l.SKU, whs[nWarehouses-1]}] = 10
	}
	for _, bc := range []struct {
		name  string
		stock Stock
	}{{"100 lines x 20 warehouses, split", split}, {"100 lines x 20 warehouses, whole order", whole}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if got := Plan(lines, whs, bc.stock); len(got) != nLines {
					b.Fatalf("%d lines planned, want %d", len(got), nLines)
				}
			}
		})
	}
}
