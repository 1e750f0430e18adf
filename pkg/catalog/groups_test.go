package catalog_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/catalog"
)

// makeChildren creates stand-alone products with a size and a color.
func (c *catalogClient) makeChildren(prefix string, sizes ...string) []string {
	c.t.Helper()
	var skus []string
	for _, s := range sizes {
		sku := prefix + "-" + s
		c.put(sku, map[string]any{"name": prefix + " " + s, "custom_attributes": map[string]any{"Size": s, "Color": "black"}})
		skus = append(skus, sku)
	}
	return skus
}

// groupBody is a PUT /variation_groups body varying on size.
func groupBody(name string, children ...string) map[string]any {
	return map[string]any{"name": name, "child_skus": children, "variation_attributes": []string{"Size"}}
}

// expect422 sends a request that must be a 422 whose message contains want.
func (c *catalogClient) expect422(want, method, path string, body any) {
	c.t.Helper()
	r := c.expect(422, method, path, body)
	if !strings.Contains(r.String(), want) {
		c.t.Errorf("%s %s: %s, want a message with %q", method, path, r.String(), want)
	}
}

func TestVariationGroupKinds(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("TEE", "S", "M")
	c.put("TEE-S", map[string]any{"brand": "Acme", "category_name": "Shirts", "package_weight": 0.3, "upc": "111"})
	c.put("ALONE", map[string]any{"name": "Alone"})
	g := c.putGroup("TEE", map[string]any{"name": "Tee", "child_skus": kids, "variation_attributes": []string{"Size", "color"},
		"description": "Our tee", "images": []string{"https://img.example/tee.jpg"}})
	if g.SKU != "TEE" || g.Name != "Tee" || *g.Description != "Our tee" || !slices.Equal(g.ChildSKUs, kids) ||
		!slices.Equal(g.VariationAttributes, []string{"size", "color"}) || len(g.Images) != 1 {
		t.Errorf("group %+v", g)
	}

	r := c.expect(200, "GET", productPath("TEE"), nil)
	assertKeys(t, rawObject(t, r.Body), append([]string{"variations", "variation_keys"}, commonFields...), []string{"variation_fields", "product_sku"})
	var gp catalog.Product
	r.JSON(t, &gp)
	switch {
	case *gp.Name != "Tee" || *gp.Description != "Our tee" || !slices.Equal(gp.ImageList, g.Images):
		t.Errorf("group as a product: %+v", gp)
	case !slices.Equal(gp.VariationKeys, []string{"size", "color"}) || !slices.Equal(skusOf(gp.Variations), kids):
		t.Errorf("group variations %v keys %v", skusOf(gp.Variations), gp.VariationKeys)
	case gp.Brand == nil || *gp.Brand != "Acme" || *gp.CategoryName != "Shirts" || *gp.PackageWeight != 0.3:
		t.Errorf("inherited fields: %+v", gp)
	case gp.UPC != nil:
		t.Errorf("identifiers are not inherited: upc %s", *gp.UPC)
	case gp.Variations[1].VariationFields["size"] != "M" || *gp.Variations[1].ParentSKU != "TEE":
		t.Errorf("variation %+v", gp.Variations[1])
	}

	r = c.expect(200, "GET", productPath("TEE-M"), nil)
	assertKeys(t, rawObject(t, r.Body), append([]string{"variation_fields"}, commonFields...), []string{"variations", "variation_keys", "product_sku"})
	child := c.get("TEE-M")
	if *child.ParentSKU != "TEE" || len(child.VariationFields) != 2 || child.VariationFields["size"] != "M" || child.VariationFields["color"] != "black" {
		t.Errorf("child %+v", child)
	}
	r = c.expect(200, "GET", productPath("ALONE"), nil)
	assertKeys(t, rawObject(t, r.Body), commonFields, conditionalKeys)

	if got := skusOf(c.list("/products")); !slices.Equal(got, []string{"ALONE", "TEE", "TEE-M", "TEE-S"}) {
		t.Errorf("GET /products lists %v", got)
	}
	for _, p := range c.list("/products?limit=1&page=2") {
		if p.SKU != "TEE" || !slices.Equal(skusOf(p.Variations), kids) {
			t.Errorf("a group on a page of one has its children from outside the page: %+v", p)
		}
	}

	edited := c.put("TEE", map[string]any{"brand": "Own Brand", "name": "Tee Shirt"})
	if *edited.Brand != "Own Brand" || len(edited.Variations) != 2 {
		t.Errorf("a group edited through /products: %+v", edited)
	}
	var groups []catalog.VariationGroup
	c.expect(200, "GET", "/variation_groups", nil).JSON(t, &groups)
	if len(groups) != 1 || groups[0].Name != "Tee Shirt" || !slices.Equal(groups[0].ChildSKUs, kids) {
		t.Errorf("groups %+v", groups)
	}
}

func TestVariationGroupRules(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("A", "S", "M")
	others := c.makeChildren("B", "S")
	c.putGroup("B", groupBody("B", others...))
	c.put("NOSIZE", map[string]any{"name": "No size", "custom_attributes": map[string]any{"color": "red"}})
	c.put("DUP", map[string]any{"name": "Dup", "custom_attributes": map[string]any{"size": "S"}})
	before := c.snapshot()

	c.expect422("product MISSING not found", "PUT", groupPath("G"), groupBody("G", kids[0], "MISSING"))
	c.expect422("B-S already belongs to variation group B", "PUT", groupPath("G"), groupBody("G", kids[0], "B-S"))
	c.expect422("B is a variation group", "PUT", groupPath("G"), groupBody("G", kids[0], "B"))
	c.expect422("NOSIZE has no custom attribute size", "PUT", groupPath("G"), groupBody("G", kids[0], "NOSIZE"))
	c.expect422("A-S and DUP have the same values of size", "PUT", groupPath("G"), groupBody("G", kids[0], "DUP"))
	c.assertUnchanged(before)
	c.put("ALONE", map[string]any{"name": "Alone"})
	before = c.snapshot()
	c.expect422("ALONE is a product", "PUT", groupPath("ALONE"), groupBody("X", kids...))
	c.expect422("B-S is a product", "PUT", groupPath("B-S"), groupBody("X", kids...))
	c.expect422("can't be its own child", "PUT", groupPath("A-S"), groupBody("X", kids...))
	c.assertUnchanged(before)

	c.putGroup("G", groupBody("G", kids...))
	c.expect422("A-S already belongs to variation group G", "PUT", groupPath("H"), groupBody("H", kids[0]))
}

func TestVariationGroupReplace(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("R", "S", "M", "L")
	first := c.putGroup("R", map[string]any{"name": "R", "child_skus": kids[:2], "variation_attributes": "size", "description": "d", "images": "i.jpg"})
	second := c.putGroup("R", groupBody("R2", kids[1], kids[2]))
	if second.Name != "R2" || second.Description != nil || len(second.Images) != 0 || !slices.Equal(second.ChildSKUs, kids[1:]) {
		t.Errorf("replaced group %+v", second)
	}
	if second.ModifiedAt <= first.ModifiedAt {
		t.Errorf("modified_at %s after %s", second.ModifiedAt, first.ModifiedAt)
	}
	if p := c.get(kids[0]); p.ParentSKU != nil || p.VariationFields != nil {
		t.Errorf("a child left out of the group is not stand-alone: %+v", p)
	}
	for _, k := range kids[1:] {
		if p := c.get(k); p.ParentSKU == nil || *p.ParentSKU != "R" {
			t.Errorf("%s is not a child of R", k)
		}
	}
	rekeyed := c.putGroup("R", map[string]any{"name": "R2", "child_skus": kids[1:], "variation_attributes": []string{"size", "color"}})
	if !slices.Equal(rekeyed.VariationAttributes, []string{"size", "color"}) {
		t.Errorf("attributes %v", rekeyed.VariationAttributes)
	}
	if p := c.get(kids[2]); p.VariationFields["color"] != "black" {
		t.Errorf("child fields after new attributes: %v", p.VariationFields)
	}
}

func TestDeleteVariationGroup(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("D", "S", "M")
	c.putGroup("D", groupBody("D", kids...))
	c.expect(200, "DELETE", groupPath("D"), nil)
	c.expect(404, "GET", productPath("D"), nil)
	for _, k := range kids {
		r := c.expect(200, "GET", productPath(k), nil)
		assertKeys(t, rawObject(t, r.Body), commonFields, conditionalKeys)
		if p := c.get(k); p.ParentSKU != nil {
			t.Errorf("%s still has parent %s", k, *p.ParentSKU)
		}
	}
	r := c.expect(404, "DELETE", groupPath("D"), nil)
	if r.String() != `{"error":"Variation group not found"}` {
		t.Errorf("404 body %s", r.String())
	}
	c.expect(404, "DELETE", groupPath(kids[0]), nil)
	c.get(kids[0])

	c.putGroup("D2", groupBody("D2", kids...))
	c.expect(200, "DELETE", productPath("D2"), nil)
	c.expect(404, "GET", productPath("D2"), nil)
	if p := c.get(kids[1]); p.ParentSKU != nil {
		t.Errorf("DELETE /products on a group left %s in it", kids[1])
	}
}

func TestDeleteChild(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("K", "S", "M")
	g := c.putGroup("K", groupBody("K", kids...))
	c.expect(200, "DELETE", productPath(kids[0]), nil)
	gp := c.get("K")
	if !slices.Equal(skusOf(gp.Variations), kids[1:]) || gp.ModifiedAt <= g.ModifiedAt {
		t.Errorf("group after deleting a child: %v at %s", skusOf(gp.Variations), gp.ModifiedAt)
	}
	var groups []catalog.VariationGroup
	c.expect(200, "GET", "/variation_groups", nil).JSON(t, &groups)
	if len(groups) != 1 || !slices.Equal(groups[0].ChildSKUs, kids[1:]) {
		t.Errorf("groups %+v", groups)
	}
	c.expect(200, "DELETE", productPath(kids[1]), nil)
	c.expect(404, "GET", productPath("K"), nil)
	if got := c.list("/products"); len(got) != 0 {
		t.Errorf("left %v", skusOf(got))
	}
}

func TestChildUpsertKeepsGroupValid(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("V", "S", "M")
	g := c.putGroup("V", groupBody("V", kids...))
	before := c.snapshot()
	c.expect422("custom_attributes.size is required", "PATCH", productPath("V-S"), map[string]any{"custom_attributes": map[string]any{"color": "red"}})
	c.expect422("custom_attributes.size is required", "PATCH", productPath("V-S"), map[string]any{"custom_attributes": nil})
	c.expect422("same values of size as V-M", "PATCH", productPath("V-S"), map[string]any{"custom_attributes": map[string]any{"size": "M"}})
	c.assertUnchanged(before)

	p := c.put("V-S", map[string]any{"custom_attributes": map[string]any{"size": "XS", "fit": "slim"}, "price": 3})
	if p.VariationFields["size"] != "XS" || *p.ParentSKU != "V" {
		t.Errorf("child after a valid change: %+v", p)
	}
	gp := c.get("V")
	if gp.ModifiedAt <= g.ModifiedAt || gp.Variations[0].VariationFields["size"] != "XS" {
		t.Errorf("group after a child changed: %s %v", gp.ModifiedAt, gp.Variations[0].VariationFields)
	}
	c.put("V-M", map[string]any{"custom_attributes": map[string]any{"size": "S"}})
}

func TestListVariationGroups(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	for _, g := range []string{"g3", "G1", "g2"} {
		c.putGroup(g, groupBody(g, c.makeChildren(g+"c", "S")...))
	}
	c.put("P", map[string]any{"name": "not a group"})
	var all, page []catalog.VariationGroup
	c.expect(200, "GET", "/variation_groups", nil).JSON(t, &all)
	if len(all) != 3 || all[0].SKU != "G1" || all[1].SKU != "g2" || all[2].SKU != "g3" {
		t.Errorf("groups %+v", all)
	}
	c.expect(200, "GET", "/variation_groups?limit=1&page=2", nil).JSON(t, &page)
	if len(page) != 1 || page[0].SKU != "g2" {
		t.Errorf("page 2 %+v", page)
	}
	r := c.expect(200, "GET", "/variation_groups?skus[]=g3&skus[]=P&skus[]=G1&skus[]=nope", nil)
	var filtered []catalog.VariationGroup
	r.JSON(t, &filtered)
	if len(filtered) != 2 || filtered[0].SKU != "G1" || filtered[1].SKU != "g3" || r.Header.Get("Total-Pages") != "1" {
		t.Errorf("filtered %+v (Total-Pages %q)", filtered, r.Header.Get("Total-Pages"))
	}
	if r := c.expect(200, "GET", "/variation_groups?page=9", nil); r.String() != "[]" {
		t.Errorf("past the end: %s", r.String())
	}
}

func TestLargestVariationGroup(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	var kids []string
	for i := range catalog.MaxChildren {
		kids = append(kids, c.makeChildren("BIG", strings.Repeat("X", i/26)+string(rune('A'+i%26)))...)
	}
	c.putGroup("BIG", groupBody("Big", kids...))
	if p := c.get("BIG"); len(p.Variations) != catalog.MaxChildren {
		t.Errorf("%d variations", len(p.Variations))
	}
	c.expect422("child_skus must list 1 to 99", "PUT", groupPath("BIG"), groupBody("Big", append(kids, "ONE-MORE")...))
	c.expect(200, "DELETE", groupPath("BIG"), nil)
	if p := c.get(kids[98]); p.ParentSKU != nil {
		t.Error("a child of the deleted group is not stand-alone")
	}
}

func TestVariationGroupOddSKUs(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	group, kid := "Grp/1 +#?", "Kid/ü 1%?"
	c.put(kid, map[string]any{"name": "kid", "custom_attributes": map[string]any{"size": "S"}})
	if g := c.putGroup(group, groupBody("odd", kid)); g.SKU != group || !slices.Equal(g.ChildSKUs, []string{kid}) {
		t.Errorf("group %+v", g)
	}
	if p := c.get(group); len(p.Variations) != 1 || p.Variations[0].SKU != kid || *p.Variations[0].ParentSKU != group {
		t.Errorf("group product %+v", p)
	}
	var gs []catalog.VariationGroup
	c.expect(200, "GET", "/variation_groups?skus="+url.QueryEscape(group), nil).JSON(t, &gs)
	if len(gs) != 1 || gs[0].SKU != group {
		t.Errorf("filtered groups %+v", gs)
	}
	c.expect(200, "DELETE", groupPath(group), nil)
	if p := c.get(kid); p.ParentSKU != nil {
		t.Errorf("%s still in %s", kid, *p.ParentSKU)
	}
}
