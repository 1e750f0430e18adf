package catalog_test

import (
	"testing"
)

func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	a, b := newClient(t), newClient(t)
	kids := a.makeChildren("A", "S", "M")
	a.putGroup("GROUP", groupBody("Group", kids...))
	a.put("P", map[string]any{"name": "A's product", "price": 10})
	before := a.snapshot()

	for _, path := range []string{"/products", "/products?skus=P&skus=GROUP", "/products?min_modified_at=2000-01-01",
		"/variation_groups", "/variation_groups?skus=GROUP"} {
		if r := b.expect(200, "GET", path, nil); r.String() != "[]" {
			t.Errorf("B sees %s: %s", path, r.String())
		}
	}
	for _, sku := range []string{"P", "GROUP", kids[0]} {
		b.expect(404, "GET", productPath(sku), nil)
		b.expect(404, "DELETE", productPath(sku), nil)
		for _, method := range []string{"POST", "PUT", "PATCH"} {
			b.expect422("name is required", method, productPath(sku), map[string]any{"price": 1})
		}
	}
	b.expect(404, "DELETE", groupPath("GROUP"), nil)
	b.expect422("product A-S not found", "PUT", groupPath("B-GROUP"), groupBody("B", kids...))
	a.assertUnchanged(before)

	own := b.put("P", map[string]any{"name": "B's product"})
	if *own.Name != "B's product" || own.Price != nil {
		t.Errorf("B's upsert of the SKU P saw A's product: %+v", own)
	}
	b.makeChildren("A", "S")
	b.put("GROUP", map[string]any{"name": "B's GROUP as a plain product"})
	b.expect422("GROUP is a product", "PUT", groupPath("GROUP"), groupBody("B", "A-S"))
	b.putGroup("B-GROUP", groupBody("B", "A-S"))
	b.expect(200, "DELETE", productPath("P"), nil)
	b.expect(200, "DELETE", groupPath("B-GROUP"), nil)
	a.assertUnchanged(before)
	if p := a.get("P"); *p.Name != "A's product" {
		t.Errorf("A's product is %q", *p.Name)
	}
}
