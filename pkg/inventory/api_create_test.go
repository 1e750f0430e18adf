package inventory_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestCreateAndList(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w1, w2 := f.warehouse("One"), f.warehouse("Two")
	f.product("B-1", `{"name":"Blue mug","package_length":10,"package_width":"8","package_height":12.5,"package_weight":0.4,"cost":3.2,"upc":"012345678905","asin":"B000TEST"}`)
	r := f.c.Do(http.MethodPost, "/inventories", `{"inventory":[`+
		record("B-1", w2, 5, `,"bin_location":"A-01"`)+","+record("B-1", w1, 7, `,"cost":"4.5"`)+","+
		`{"sku":"A-1","warehouse_uuid":"`+w1+`","available":"3","description":"initial count"}`+`]}`)
	if r.Status != http.StatusCreated {
		t.Fatalf("POST: %d %s", r.Status, r.Body)
	}
	var created map[string]string
	r.JSON(t, &created)
	if created["body"] == "" {
		t.Errorf("201 body %s", r.Body)
	}
	recs := f.list("")
	if len(recs) != 3 {
		t.Fatalf("got %d records", len(recs))
	}
	// (sku, warehouse_uuid) order: warehouse uuids are time-ordered, w1 < w2.
	if recs[0].SKU != "A-1" || recs[1].SKU != "B-1" || recs[1].Warehouse != w1 || recs[2].Warehouse != w2 {
		t.Errorf("order: %+v", recs)
	}
	check(t, recs[0], 3, 0, 3)
	check(t, recs[1], 7, 0, 7)
	check(t, recs[2], 5, 0, 5)
	a, b1, b2 := recs[0], recs[1], recs[2]
	if a.ProductName != nil || a.Cost != nil || a.Description == nil || *a.Description != "initial count" {
		t.Errorf("record without product: %+v", a)
	}
	if b1.ProductName == nil || *b1.ProductName != "Blue mug" || *b1.PackageWidth != 8 || *b1.PackageHeight != 12.5 ||
		*b1.UPC != "012345678905" || *b1.ASIN != "B000TEST" || b1.EAN != nil || b1.FNSKU != nil {
		t.Errorf("product fields: %+v", b1)
	}
	if *b1.Cost != 4.5 || *b2.Cost != 3.2 {
		t.Errorf("cost: record's own %v, product's %v", *b1.Cost, *b2.Cost)
	}
	if b2.BinLocation == nil || *b2.BinLocation != "A-01" || b1.BinLocation != nil {
		t.Errorf("bin_location: %v %v", b1.BinLocation, b2.BinLocation)
	}
	if b1.CreatedAt == "" || b1.CreatedAt != b1.UpdatedAt {
		t.Errorf("times: %q %q", b1.CreatedAt, b1.UpdatedAt)
	}
	// Numbers are JSON numbers.
	raw := f.c.Do(http.MethodGet, "/inventory", nil).String()
	if !strings.Contains(raw, `"on_hand":3,"reserved":0,"available":3`) {
		t.Errorf("quantities are not numbers: %s", raw)
	}
}

func TestCreateConflictCreatesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 1))
	// One item is a single conditional put, more are one transaction: the
	// answer is the same.
	tests := []struct {
		name  string
		items []string
	}{
		{"one of two", []string{record("B", w, 2), record("A", w, 9)}},
		{"single", []string{record("A", w, 9)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.c.Do(http.MethodPost, "/inventory", body(tt.items...))
			if got, want := r.Status, http.StatusConflict; got != want {
				t.Fatalf("POST existing: got %d %s, want %d", got, r.Body, want)
			}
			if got, want := errorMessage(t, r), `Inventory already exists for sku "A" in warehouse `+w; got != want {
				t.Errorf("409 message: got %q, want %q", got, want)
			}
		})
	}
	recs := f.list("")
	if len(recs) != 1 || recs[0].SKU != "A" {
		t.Fatalf("after 409: %+v", recs)
	}
	check(t, recs[0], 1, 0, 1)
}

func TestCreateUnknownWarehouse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	for _, unknown := range []string{"0190a4c2-0000-7000-8000-000000000001", "not-a-uuid", "A/B C+#?"} {
		t.Run(unknown, func(t *testing.T) {
			r := f.c.Do(http.MethodPost, "/inventory", body(record("A", w, 1), record("B", unknown, 1)))
			if r.Status != http.StatusNotFound || errorMessage(t, r) != "Warehouse not found" {
				t.Errorf("got %d %s, want 404 Warehouse not found", r.Status, r.Body)
			}
		})
	}
	if recs := f.list(""); len(recs) != 0 {
		t.Errorf("created %+v", recs)
	}
}
