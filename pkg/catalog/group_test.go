package catalog

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// child is a stand-alone product record with custom attributes.
func child(sku string, attrs map[string]any) *record {
	return &record{Product: Product{SKU: sku, CustomAttributes: attrs, ModifiedAt: "2026-01-01T00:00:00Z"}, Version: 1}
}

func TestChildCombos(t *testing.T) {
	t.Parallel()
	member := child("M", map[string]any{"size": "M"})
	member.ParentSKU, member.Keys = ptr("G"), []string{"size"}
	other := child("O", map[string]any{"size": "L"})
	other.ParentSKU = ptr("H")
	group := &record{Product: Product{SKU: "X"}, Children: []string{"Y"}}
	recs := map[string]*record{
		"S": child("S", map[string]any{"size": "S"}), "S2": child("S2", map[string]any{"size": "S"}),
		"N": child("N", nil), "M": member, "O": other, "X": group,
	}
	for _, tc := range []struct {
		children []string
		wantErr  string
	}{
		{children: []string{"S", "M"}},
		{children: []string{"S", "missing"}, wantErr: "product missing not found"},
		{children: []string{"X"}, wantErr: "X is a variation group"},
		{children: []string{"O"}, wantErr: "O already belongs to variation group H"},
		{children: []string{"N"}, wantErr: "N has no custom attribute size"},
		{children: []string{"S", "S2"}, wantErr: "S and S2 have the same values of size"},
	} {
		combos, err := childCombos("G", GroupInput{children: tc.children, keys: []string{"size"}}, recs)
		if tc.wantErr == "" {
			if err != nil || len(combos) != len(tc.children) {
				t.Errorf("%v: %v %v", tc.children, combos, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%v: error %v, want %q", tc.children, err, tc.wantErr)
		}
	}
}

func TestMemberChanges(t *testing.T) {
	t.Parallel()
	keep := child("KEEP", map[string]any{"size": "M"})
	keep.ParentSKU, keep.Keys = ptr("G"), []string{"size"}
	leave := child("LEAVE", map[string]any{"size": "L"})
	leave.ParentSKU, leave.Keys = ptr("G"), []string{"size"}
	join := child("JOIN", map[string]any{"size": "S"})
	recs := map[string]*record{"KEEP": keep, "LEAVE": leave, "JOIN": join}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

	changes := memberChanges("G", GroupInput{children: []string{"KEEP", "JOIN"}, keys: []string{"size"}}, []string{"KEEP", "LEAVE"}, recs, now)
	var got []string
	for _, c := range changes {
		got = append(got, c.sku)
		switch c.sku {
		case "JOIN":
			if *c.next.ParentSKU != "G" || !slices.Equal(c.next.Keys, []string{"size"}) || c.read != 1 || c.next.Version != 2 {
				t.Errorf("join: %+v", c.next)
			}
		case "LEAVE":
			if c.next.ParentSKU != nil || c.next.Keys != nil || c.read != 1 {
				t.Errorf("leave: %+v", c.next)
			}
		}
		if c.next.ModifiedAt != "2026-01-01T00:00:01Z" {
			t.Errorf("%s modified_at %s, want a second after the last write", c.sku, c.next.ModifiedAt)
		}
	}
	if !slices.Equal(got, []string{"JOIN", "LEAVE"}) {
		t.Errorf("changed %v, want JOIN and LEAVE (KEEP is unchanged)", got)
	}
	if keep.Version != 1 || join.ParentSKU != nil {
		t.Error("the records read were modified")
	}

	rekeyed := memberChanges("G", GroupInput{children: []string{"KEEP"}, keys: []string{"size", "color"}}, []string{"KEEP"}, recs, now)
	if len(rekeyed) != 1 || !slices.Equal(rekeyed[0].next.Keys, []string{"size", "color"}) {
		t.Errorf("new variation attributes: %+v", rekeyed)
	}
}

func TestWithoutChild(t *testing.T) {
	t.Parallel()
	g := &record{Product: Product{SKU: "G"}, Children: []string{"A", "B", "C"}, Combos: []string{"a", "b", "c"}, Version: 3}
	b := &record{Product: Product{SKU: "B", ParentSKU: ptr("G")}}
	c, err := withoutChild(g, b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.next.Children, []string{"A", "C"}) || !slices.Equal(c.next.Combos, []string{"a", "c"}) || c.read != 3 {
		t.Errorf("without B: %+v read %d", c.next, c.read)
	}
	if !slices.Equal(g.Children, []string{"A", "B", "C"}) {
		t.Error("the group read was modified")
	}
	last := &record{Product: Product{SKU: "G"}, Children: []string{"B"}, Combos: []string{"b"}, Version: 2}
	if c, err := withoutChild(last, b); err != nil || c.next != nil || c.read != 2 {
		t.Errorf("without its last child the group is deleted: %+v %v", c, err)
	}
	if _, err := withoutChild(nil, b); err == nil {
		t.Error("a missing group is an error")
	}
}

func TestGroupProductInherits(t *testing.T) {
	t.Parallel()
	g := &record{Product: Product{SKU: "G", Name: ptr("Tee"), Brand: ptr("Own brand")}, Keys: []string{"size"}, Children: []string{"A", "B"}}
	a := child("A", map[string]any{"size": "S"})
	a.ParentSKU, a.Keys = ptr("G"), []string{"size"}
	a.UPC, a.Price = ptr("123"), ptrF(5)
	b := child("B", map[string]any{"size": "M"})
	b.ParentSKU, b.Keys = ptr("G"), []string{"size"}
	b.Brand, b.CategoryName, b.PackageWeight, b.Features = ptr("Child brand"), ptr("Shirts"), ptrF(2), []string{"soft"}
	p := g.groupProduct(map[string]*record{"A": a, "B": b})
	switch {
	case *p.Brand != "Own brand":
		t.Errorf("brand %q: the group's own value wins", *p.Brand)
	case p.CategoryName == nil || *p.CategoryName != "Shirts" || p.PackageWeight == nil || *p.PackageWeight != 2:
		t.Errorf("category and weight are not inherited: %+v", p)
	case !slices.Equal(p.Features, []string{"soft"}):
		t.Errorf("features %v", p.Features)
	case p.UPC != nil || p.Price != nil:
		t.Errorf("identifiers and prices are not inherited: %+v", p)
	case len(p.Variations) != 2 || p.Variations[0].SKU != "A" || p.Variations[1].VariationFields["size"] != "M":
		t.Errorf("variations %+v", p.Variations)
	case !slices.Equal(p.VariationKeys, []string{"size"}) || p.ImageList == nil || p.CustomAttributes == nil:
		t.Errorf("group fields %+v", p)
	}
	if b.Product.Brand == nil || *g.Brand != "Own brand" || g.CategoryName != nil {
		t.Error("the records were modified")
	}
}

func TestProductKinds(t *testing.T) {
	t.Parallel()
	alone := child("A", map[string]any{"size": "S"}).product()
	if alone.VariationFields != nil || alone.VariationKeys != nil || alone.Variations != nil || alone.ParentSKU != nil {
		t.Errorf("stand-alone %+v", alone)
	}
	if alone.Features == nil || alone.ImageList == nil {
		t.Error("unset lists must be empty, not null")
	}
	c := child("C", map[string]any{"size": "S", "color": "red"})
	c.ParentSKU, c.Keys = ptr("G"), []string{"size"}
	p := c.product()
	if len(p.VariationFields) != 1 || p.VariationFields["size"] != "S" || p.VariationKeys != nil {
		t.Errorf("child %+v", p)
	}
}

func TestNextModified(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 500, time.UTC)
	for _, tc := range []struct{ prev, want string }{
		{"", "2026-03-01T12:00:00Z"},
		{"2026-03-01T11:00:00Z", "2026-03-01T12:00:00Z"},
		{"2026-03-01T12:00:00Z", "2026-03-01T12:00:01Z"},
		{"2026-03-01T12:00:05Z", "2026-03-01T12:00:06Z"},
	} {
		if got := nextModified(tc.prev, now); got != tc.want {
			t.Errorf("nextModified(%q) = %s, want %s", tc.prev, got, tc.want)
		}
	}
}
