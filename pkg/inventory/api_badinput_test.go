package inventory_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// TestBadInput sends every write endpoint malformed, mistyped, incomplete,
// oversize and odd bodies: each gets its 4xx, never a 5xx, and nothing
// changes.
func TestBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 5))
	before := f.list("")
	huge := `{"inventory":[` + record("A", w, 1, `,"description":"`+strings.Repeat("x", 1<<20)+`"`) + `]}`
	tests := []struct {
		name   string
		body   string
		status int
	}{
		{"malformed", `{"inventory":[`, http.StatusBadRequest},
		{"empty", ``, http.StatusBadRequest},
		{"array", `[` + record("A", w, 1) + `]`, http.StatusBadRequest},
		{"string", `"x"`, http.StatusBadRequest},
		{"oversize", huge, http.StatusRequestEntityTooLarge},
		{"no inventory", `{"items":[]}`, http.StatusUnprocessableEntity},
		{"inventory number", `{"inventory":1}`, http.StatusUnprocessableEntity},
		{"no items", `{"inventory":[]}`, http.StatusUnprocessableEntity},
		{"null item", `{"inventory":[null]}`, http.StatusUnprocessableEntity},
		{"item string", `{"inventory":["A"]}`, http.StatusUnprocessableEntity},
		{"missing sku", `{"inventory":{"warehouse_uuid":"` + w + `","on_hand":1}}`, http.StatusUnprocessableEntity},
		{"missing warehouse", `{"inventory":{"sku":"A","on_hand":1}}`, http.StatusUnprocessableEntity},
		{"sku array", `{"inventory":{"sku":["A"],"warehouse_uuid":"` + w + `","on_hand":1}}`, http.StatusUnprocessableEntity},
		{"quantity object", body(`{"sku":"A","warehouse_uuid":"` + w + `","on_hand":{}}`), http.StatusUnprocessableEntity},
		{"quantity too big", body(record("A", w, 1<<31)), http.StatusUnprocessableEntity},
		{"sku 256", body(record(strings.Repeat("s", 256), w, 1)), http.StatusUnprocessableEntity},
		{"sku control", body(record("A\u0007", w, 1)), http.StatusUnprocessableEntity},
		{"sku newline", body(record("A\nB", w, 1)), http.StatusUnprocessableEntity},
		{"cost text", body(record("A", w, 1, `,"cost":"cheap"`)), http.StatusUnprocessableEntity},
		{"duplicate", body(record("A", w, 1), record("A", w, 2)), http.StatusUnprocessableEntity},
	}
	for _, path := range []string{"/inventory", "/inventories"} {
		for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch} {
			for _, tt := range tests {
				t.Run(method+" "+path+" "+tt.name, func(t *testing.T) {
					r := f.c.Do(method, path, tt.body)
					if got := r.Status; got != tt.status {
						t.Errorf("got %d %s, want %d", got, r.Body, tt.status)
					}
				})
			}
		}
	}
	f.applied(f.adjust(http.MethodPatch, body(record("A", w, 5))))
	after := f.list("")
	before[0].UpdatedAt = after[0].UpdatedAt
	if !reflect.DeepEqual(before, after) {
		t.Errorf("bad input changed the records:\n%+v\n%+v", before, after)
	}
}

// TestOddSKUs round-trips SKUs with unicode and URL-special characters,
// and the longest SKU.
func TestOddSKUs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	odd := []string{"A/B C+#?", "Ünïcödé-😀", "100%", "a&b=c", strings.Repeat("é", 255), `quote"back\slash`}
	var items []string
	for _, s := range odd {
		items = append(items, `{"sku":`+quoteJSON(s)+`,"warehouse_uuid":"`+w+`","on_hand":1}`)
	}
	f.create(items...)
	for _, s := range odd {
		check(t, f.get(s, w), 1, 0, 1)
	}
	st := f.applied(f.adjust(http.MethodPut, body(items...)))
	for i, r := range st.Items {
		if r.SKU != odd[i] || r.Result != "applied" {
			t.Errorf("result %d: %+v", i, r)
		}
	}
}
