package paging

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
)

func TestSliceByNumber(t *testing.T) {
	t.Parallel()
	items := []int{1, 2, 3, 4, 5}
	tests := []struct {
		page, limit int
		want        []int
	}{
		{1, 2, []int{1, 2}},
		{3, 2, []int{5}},
		{4, 2, []int{}},
		{1, 100, items},
		{1 << 30, 100, []int{}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("page %d limit %d", tt.page, tt.limit), func(t *testing.T) {
			t.Parallel()
			got, _, err := SliceAfter(items, Page{Number: tt.page, Limit: tt.limit}, "acct", "numbers", strconv.Itoa)
			if !slices.Equal(got, tt.want) || got == nil || err != nil {
				t.Errorf("SliceAfter = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestTotalPages(t *testing.T) {
	t.Parallel()
	tests := []struct{ total, limit, want int }{
		{0, 100, 1}, {1, 100, 1}, {100, 100, 1}, {101, 100, 2}, {5, 2, 3},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d by %d", tt.total, tt.limit), func(t *testing.T) {
			t.Parallel()
			if got := TotalPages(tt.total, tt.limit); got != tt.want {
				t.Errorf("TotalPages(%d, %d) = %d, want %d", tt.total, tt.limit, got, tt.want)
			}
		})
	}
}

func TestOffset(t *testing.T) {
	t.Parallel()
	if got, want := (Page{Number: 3, Limit: 20}).Offset(), 40; got != want {
		t.Errorf("Offset = %d, want %d", got, want)
	}
}
