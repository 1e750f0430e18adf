package inventory_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/inventory"
)

// skus lists the SKUs of records.
func skus(recs []inventory.Inventory) string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.SKU
	}
	return strings.Join(out, ",")
}

func TestListFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w1, w2 := f.warehouse("One"), f.warehouse("Two")
	f.create(record("C", w1, 1), record("A", w1, 1), record("B", w2, 1), record("A/B C+#?", w2, 1), record("Ünï", w1, 1))
	tests := []struct {
		query string
		want  string
	}{
		{"", "A,A/B C+#?,B,C,Ünï"},
		{"warehouse_uuid=" + w1, "A,C,Ünï"},
		{"sku=C", "C"},
		{"sku[]=C&sku[]=A&sku[]=nope", "A,C"},
		{"skus=B&skus[]=C&sku=B", "B,C"},
		{"sku=" + url.QueryEscape("A/B C+#?"), "A/B C+#?"},
		{"sku=" + url.QueryEscape("Ünï"), "Ünï"},
		{"sku=A&sku=B&warehouse_uuid=" + w2, "B"},
		{"created_at_min=2000-01-01", "A,A/B C+#?,B,C,Ünï"},
		{"created_at_max=2000-01-01", ""},
		{"updated_at_min=2000-01-01T00:00:00%2B02:00&warehouse_uuid=" + w2, "A/B C+#?,B"},
		{"updated_at_max=2000-01-01", ""},
		{"min_updated_at=2000-01-01&max_updated_at=2999-01-01&sku=C", "C"},
		{"updated_at_min=2999-01-01&updated_at_max=2000-01-01", ""},
	}
	for _, tt := range tests {
		t.Run("?"+tt.query, func(t *testing.T) {
			if got := skus(f.list(tt.query)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// A record's own timestamp used as a bound includes it.
	c := f.get("C", w1)
	for _, q := range []string{"created_at_min=", "created_at_max=", "updated_at_min=", "updated_at_max="} {
		t.Run("own time "+q, func(t *testing.T) {
			if got, want := skus(f.list("sku=C&"+q+c.CreatedAt)), "C"; got != want {
				t.Errorf("%s%s: got %q, want %q", q, c.CreatedAt, got, want)
			}
		})
	}
	r := f.c.Do(http.MethodGet, "/inventory?warehouse_uuid=0190a4c2-0000-7000-8000-000000000001", nil)
	if r.Status != http.StatusNotFound || errorMessage(t, r) != "Warehouse not found" {
		t.Errorf("unknown warehouse: %d %s", r.Status, r.Body)
	}
	// A known warehouse without records is an empty list.
	w3 := f.warehouse("Three")
	if got := f.list("warehouse_uuid=" + w3); len(got) != 0 {
		t.Errorf("empty warehouse: %+v", got)
	}
}

func TestListPagination(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	items := make([]string, 0, 45)
	for i := range 45 {
		items = append(items, record(fmt.Sprintf("SKU-%03d", i), w, i))
	}
	f.create(items[:30]...)
	f.create(items[30:]...)
	r := f.c.Do(http.MethodGet, "/inventory?limit=20&page=2", nil)
	var page []inventory.Inventory
	r.JSON(t, &page)
	if len(page) != 20 || page[0].SKU != "SKU-020" || page[19].SKU != "SKU-039" {
		t.Errorf("page 2: %s", skus(page))
	}
	if tp := r.Header.Get("Total-Pages"); tp != "3" {
		t.Errorf("page 2: Total-Pages %q, want 3 (on every page)", tp)
	}
	r = f.c.Do(http.MethodGet, "/inventory?limit=20&page=3", nil)
	r.JSON(t, &page)
	if len(page) != 5 || page[0].SKU != "SKU-040" || r.Header.Get("Total-Pages") != "3" {
		t.Errorf("page 3: %s, Total-Pages %q", skus(page), r.Header.Get("Total-Pages"))
	}
	if got := f.list("limit=20&page=4"); len(got) != 0 {
		t.Errorf("past the end: %d records", len(got))
	}
	if got := f.list("limit=500"); len(got) != 45 {
		t.Errorf("limit 500: %d records", len(got))
	}
	if got := f.list("limit=10&page=2&created_at_min=2000-01-01"); skus(got) != skus(f.list("limit=45"))[80:159] {
		t.Errorf("filtered page 2: %s", skus(got))
	}
	for _, q := range []string{"page=0", "limit=0", "page=x", "limit=-1", "page=1.5"} {
		t.Run("?"+q, func(t *testing.T) {
			r := f.c.Do(http.MethodGet, "/inventory?"+q, nil)
			if got, want := r.Status, http.StatusUnprocessableEntity; got != want {
				t.Errorf("got %d, want %d", got, want)
			}
		})
	}
}

func TestListInvalidFilters(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var many []string
	for i := range 101 {
		many = append(many, fmt.Sprintf("sku[]=S%d", i))
	}
	tests := []struct{ name, query string }{
		{"created_at_min not a time", "created_at_min=yesterday"},
		{"updated_at_max not a date", "updated_at_max=2024-02-30"},
		{"blank warehouse_uuid", "warehouse_uuid="},
		{"empty sku", "sku="},
		{"control sku", "sku=" + url.QueryEscape("A\x01")},
		{"sku 256", "sku=" + strings.Repeat("x", 256)},
		{"101 skus", strings.Join(many, "&")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.c.Do(http.MethodGet, "/inventory?"+tt.query, nil)
			if got, want := r.Status, http.StatusUnprocessableEntity; got != want {
				t.Errorf("got %d %s, want %d", got, r.Body, want)
			}
		})
	}
}

// TestUpdatedAtMoves checks that an adjustment and a reservation move
// updated_at, so updated_at_min finds the records whose quantities changed.
func TestUpdatedAtMoves(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 5), record("B", w, 5), record("C", w, 5))
	before := f.get("A", w).UpdatedAt
	time.Sleep(1100 * time.Millisecond)
	f.applied(f.adjust(http.MethodPatch, body(record("A", w, 6))))
	if err := f.reserve("B", w, 2); err != nil {
		t.Fatal(err)
	}
	if got := skus(f.list("updated_at_min=" + url.QueryEscape(before) + "&updated_at_max=" + url.QueryEscape(before))); got != "C" {
		t.Errorf("unchanged since %s: %q", before, got)
	}
	next, _ := time.Parse(time.RFC3339, before)
	if got := skus(f.list("updated_at_min=" + next.Add(time.Second).Format(time.RFC3339))); got != "A,B" {
		t.Errorf("changed after %s: %q", before, got)
	}
}
