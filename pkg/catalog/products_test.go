package catalog_test

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/catalog"
)

// commonFields are the keys every product response has.
var commonFields = []string{"id", "sku", "asin", "condition", "brand", "manufacturer", "manufacturer_model_number",
	"name", "description", "price", "cost", "package_length", "package_width", "package_height",
	"package_unit_of_length", "package_weight", "package_unit_of_weight", "msrp", "category_name", "features",
	"warranty", "condition_note", "upc", "ean", "isbn", "gtin", "gcid", "epid", "image_list", "provider",
	"quantity", "modified_at", "custom_attributes", "parent_sku"}

// conditionalKeys are the keys that tell the kind of a product.
var conditionalKeys = []string{"product_sku", "variations", "variation_keys", "variation_fields"}

// rawObject decodes a JSON object keeping each member raw.
func rawObject(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %s", b)
	}
	return m
}

// assertKeys checks that obj has every key of has and none of hasNot.
func assertKeys(t *testing.T, obj map[string]json.RawMessage, has, hasNot []string) {
	t.Helper()
	for _, k := range has {
		if _, ok := obj[k]; !ok {
			t.Errorf("key %s missing", k)
		}
	}
	for _, k := range hasNot {
		if _, ok := obj[k]; ok {
			t.Errorf("key %s present", k)
		}
	}
}

func TestProductCreateAndGet(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	body := map[string]any{
		"name": "Classic Tee", "description": "Soft cotton tee", "condition": "New", "brand": "Acme",
		"manufacturer": "Acme Mills", "manufacturer_model_number": "AM-1", "price": "19.99", "cost": 7,
		"msrp": 25, "package_length": "10", "package_width": 8, "package_height": 1.5, "package_unit_of_length": "in",
		"package_weight": 0.4, "package_unit_of_weight": "lb", "category_name": "Shirts", "features": "Pre-shrunk",
		"warranty": "30 days", "condition_note": "Brand new", "upc": 123456789012, "ean": "4006381333931",
		"isbn": "978-3-16-148410-0", "gtin": "00012345678905", "gcid": "G1", "epid": "E1", "asin": "B000TEST01",
		"image_list": []string{"https://img.example/1.jpg"}, "provider": "Acme", "quantity": "12",
		"custom_attributes": map[string]any{"Shoe Size": 10, "Color": "red", "gift": true}, "unknown_field": "ignored",
	}
	r := c.expect(200, "POST", productPath("TEE-1"), body)
	obj := rawObject(t, r.Body)
	assertKeys(t, obj, commonFields, conditionalKeys)
	p := c.get("TEE-1")
	switch {
	case p.ID < 1 || p.SKU != "TEE-1" || *p.Name != "Classic Tee" || *p.Condition != "new":
		t.Errorf("product %+v", p)
	case *p.Price != 19.99 || *p.PackageLength != 10 || *p.UPC != "123456789012":
		t.Errorf("lenient numbers and texts: %+v", p)
	case p.Quantity == nil || *p.Quantity != 0:
		t.Errorf("quantity %v: the written 12 is ignored, and a product without stock has 0", p.Quantity)
	case !slices.Equal(p.Features, []string{"Pre-shrunk"}) || len(p.ImageList) != 1:
		t.Errorf("lists %v %v", p.Features, p.ImageList)
	case p.CustomAttributes["shoe_size"] != 10.0 || p.CustomAttributes["color"] != "red" || p.CustomAttributes["gift"] != true:
		t.Errorf("custom attributes %v", p.CustomAttributes)
	case p.ParentSKU != nil:
		t.Errorf("parent_sku %v", *p.ParentSKU)
	}
	if _, err := time.Parse(time.RFC3339, p.ModifiedAt); err != nil || !strings.HasSuffix(p.ModifiedAt, "Z") {
		t.Errorf("modified_at %q", p.ModifiedAt)
	}
}

func TestProductDefaults(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	r := c.expect(200, "PUT", productPath("MIN"), map[string]any{"name": "Minimal"})
	obj := rawObject(t, r.Body)
	for _, k := range commonFields {
		want := "null"
		switch k {
		case "id", "sku", "name", "modified_at":
			continue
		case "features", "image_list":
			want = "[]"
		case "custom_attributes":
			want = "{}"
		case "quantity":
			want = "0" // derived from inventory, and there is none
		}
		if got := string(obj[k]); got != want {
			t.Errorf("%s = %s, want %s", k, got, want)
		}
	}
}

func TestProductUpsertMethods(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	created := c.put("U-1", map[string]any{"name": "First", "brand": "Acme", "price": 5, "features": []string{"a"}})
	for _, method := range []string{"POST", "PUT", "PATCH"} {
		var p struct {
			ID    int64    `json:"id"`
			Name  string   `json:"name"`
			Brand *string  `json:"brand"`
			Price *float64 `json:"price"`
		}
		c.expect(200, method, productPath("U-1"), map[string]any{"price": 6}).JSON(t, &p)
		if p.ID != created.ID || p.Name != "First" || p.Brand == nil || *p.Brand != "Acme" || *p.Price != 6 {
			t.Errorf("%s changed more than price: %+v", method, p)
		}
	}
	cleared := c.put("U-1", map[string]any{"brand": nil, "features": nil, "price": nil})
	if cleared.Brand != nil || cleared.Price != nil || len(cleared.Features) != 0 || *cleared.Name != "First" {
		t.Errorf("explicit null did not clear: %+v", cleared)
	}
	for _, method := range []string{"POST", "PUT", "PATCH"} {
		r := c.expect(422, method, productPath("NEW-"+method), map[string]any{"price": 1})
		if !strings.Contains(r.String(), "name is required") {
			t.Errorf("%s without name: %s", method, r.String())
		}
		c.expect(404, "GET", productPath("NEW-"+method), nil)
		c.expect(200, method, productPath("NEW-"+method), map[string]any{"name": "Made by " + method})
	}
	r := c.expect(422, "PATCH", productPath("U-1"), map[string]any{"name": nil})
	if !strings.Contains(r.String(), "name can't be blank") {
		t.Errorf("clearing the name: %s", r.String())
	}
	if p := c.get("U-1"); *p.Name != "First" {
		t.Errorf("name %q after a refused clear", *p.Name)
	}
}

func TestProductModifiedAtChangesOnEveryWrite(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	prev := c.put("M-1", map[string]any{"name": "M"}).ModifiedAt
	for i := range 3 {
		next := c.put("M-1", map[string]any{"price": i}).ModifiedAt
		if next <= prev {
			t.Fatalf("write %d: modified_at %s after %s", i, next, prev)
		}
		prev = next
	}
	if got := c.get("M-1").ModifiedAt; got != prev {
		t.Errorf("GET modified_at %s, want %s", got, prev)
	}
}

func TestProductSKUs(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	long := strings.Repeat("é", 255)
	for _, sku := range []string{"A/B C+#?", "Ünïcødé ✓ 製品", long, "100%", "a.b", "abc", "ABC"} {
		p := c.put(sku, map[string]any{"name": "SKU " + sku})
		if p.SKU != sku {
			t.Errorf("PUT %q answered sku %q", sku, p.SKU)
		}
		if got := c.get(sku); got.SKU != sku || *got.Name != "SKU "+sku {
			t.Errorf("GET %q = %q %q", sku, got.SKU, *got.Name)
		}
	}
	if got := c.get("abc"); *got.Name != "SKU abc" {
		t.Errorf("SKUs are case-sensitive: abc is %q", *got.Name)
	}
	if ps := c.list("/products?skus[]=" + url.QueryEscape("A/B C+#?")); len(ps) != 1 || ps[0].SKU != "A/B C+#?" {
		t.Errorf("filter by an odd SKU: %+v", ps)
	}
	c.expect(200, "DELETE", productPath("A/B C+#?"), nil)
	c.expect(404, "GET", productPath("A/B C+#?"), nil)
}

func TestListProducts(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	skus := []string{"d", "B", "a", "c", "A"}
	for _, s := range skus {
		c.put(s, map[string]any{"name": s})
	}
	want := []string{"A", "B", "a", "c", "d"}
	if got := skusOf(c.list("/products")); !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	var pages []string
	for page := 1; page <= 3; page++ {
		r := c.expect(200, "GET", "/products?limit=2&page="+strconv.Itoa(page), nil)
		var ps []jsonProduct
		r.JSON(t, &ps)
		for _, p := range ps {
			pages = append(pages, p.SKU)
		}
	}
	if !slices.Equal(pages, want) {
		t.Errorf("pages %v, want %v", pages, want)
	}
	if r := c.expect(200, "GET", "/products?page=4&limit=2", nil); r.String() != "[]" {
		t.Errorf("past the end: %s", r.String())
	}
	if got := skusOf(c.list("/products?limit=500")); len(got) != 5 {
		t.Errorf("limit above 100: %v", got)
	}
	for _, q := range []string{"skus=a&skus=c&skus=zz", "skus[]=a&skus[]=c", "sku=a&sku[]=c", "sku[]=c&sku[]=a&sku[]=a"} {
		r := c.expect(200, "GET", "/products?"+q, nil)
		var ps []jsonProduct
		r.JSON(t, &ps)
		if got := skusOfJSON(ps); !slices.Equal(got, []string{"a", "c"}) {
			t.Errorf("%s: %v", q, got)
		}
		if r.Header.Get("Total-Pages") != "1" {
			t.Errorf("%s: Total-Pages %q", q, r.Header.Get("Total-Pages"))
		}
	}
}

func TestListProductsByModifiedAt(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	first := c.put("OLD", map[string]any{"name": "old"}).ModifiedAt
	var last string
	for last <= first {
		time.Sleep(200 * time.Millisecond)
		last = c.put("NEW", map[string]any{"name": "new"}).ModifiedAt
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"min_modified_at=" + last, []string{"NEW"}},
		{"modified_at_min=" + last, []string{"NEW"}},
		{"max_modified_at=" + first, []string{"OLD"}},
		{"modified_at_max=" + first, []string{"OLD"}},
		{"min_modified_at=" + first + "&max_modified_at=" + last, []string{"NEW", "OLD"}},
		{"min_modified_at=2000-01-01", []string{"NEW", "OLD"}},
		{"max_modified_at=2000-01-01", nil},
		{"min_modified_at=" + last + "&max_modified_at=" + first, nil},
		{"min_modified_at=" + first + "&skus=OLD", []string{"OLD"}},
		{"min_modified_at=" + last + "&skus=OLD", nil},
	} {
		r := c.expect(200, "GET", "/products?"+strings.ReplaceAll(tc.query, "+", "%2B"), nil)
		var ps []jsonProduct
		r.JSON(t, &ps)
		if got := skusOfJSON(ps); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, got, tc.want)
		}
		if r.Header.Get("Total-Pages") != "1" {
			t.Errorf("%s: Total-Pages %q", tc.query, r.Header.Get("Total-Pages"))
		}
	}
}

func TestDeleteProduct(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	c.put("GONE", map[string]any{"name": "gone"})
	c.put("KEPT", map[string]any{"name": "kept"})
	var msg struct{ Message string }
	c.expect(200, "DELETE", productPath("GONE"), nil).JSON(t, &msg)
	if msg.Message == "" {
		t.Error("no message")
	}
	r := c.expect(404, "GET", productPath("GONE"), nil)
	if r.String() != `{"error":"Product not found"}` {
		t.Errorf("404 body %s", r.String())
	}
	c.expect(404, "DELETE", productPath("GONE"), nil)
	if got := skusOf(c.list("/products")); !slices.Equal(got, []string{"KEPT"}) {
		t.Errorf("left %v", got)
	}
}

// jsonProduct is the part of a product response the list tests read.
type jsonProduct struct {
	SKU string `json:"sku"`
}

func skusOfJSON(ps []jsonProduct) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.SKU)
	}
	return out
}

// TestProductQuantityIsDerived: quantity is read-only, derived from inventory: 0 for a
// product (stand-alone, child or group) without stock, in every response; a written
// quantity, valid or not, is ignored by every upsert method: no 422, and the product
// is as before but for modified_at (the write still counts as one), the other fields
// of the body applied.
func TestProductQuantityIsDerived(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	created := c.put("Q-1", map[string]any{"name": "Q", "quantity": 5})
	if created.Quantity == nil || *created.Quantity != 0 {
		t.Errorf("created with quantity 5: quantity %v, want 0", created.Quantity)
	}
	// without modifiedAt: the product's JSON with modified_at blanked.
	withoutModifiedAt := func(p catalog.Product) string {
		p.ModifiedAt = ""
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	want := withoutModifiedAt(c.get("Q-1"))
	for _, method := range []string{"POST", "PUT", "PATCH"} {
		for _, q := range []any{5, "7", 0, "abc", -1, 1.5, 3000000000, nil, map[string]any{"a": 1}, []int{1}} {
			var p catalog.Product
			c.expect(200, method, productPath("Q-1"), map[string]any{"quantity": q}).JSON(t, &p)
			if got := withoutModifiedAt(p); got != want {
				t.Errorf("%s quantity %#v: answered %s, want %s", method, q, got, want)
			}
			if got := withoutModifiedAt(c.get("Q-1")); got != want {
				t.Errorf("%s quantity %#v: GET %s, want %s", method, q, got, want)
			}
		}
	}
	// With another field: that field is applied, the quantity ignored.
	if p := c.put("Q-1", map[string]any{"quantity": "abc", "price": 3}); *p.Price != 3 || *p.Quantity != 0 {
		t.Errorf("quantity abc with price 3: price %v, quantity %v", *p.Price, *p.Quantity)
	}
	kids := c.makeChildren("QG", "S", "M")
	c.putGroup("QG", groupBody("QG", kids...))
	for _, p := range c.list("/products") {
		if p.Quantity == nil || *p.Quantity != 0 {
			t.Errorf("GET /products: %s has quantity %v, want 0", p.SKU, p.Quantity)
		}
		for _, v := range p.Variations {
			if v.Quantity == nil || *v.Quantity != 0 {
				t.Errorf("GET /products: %s's variation %s has quantity %v, want 0", p.SKU, v.SKU, v.Quantity)
			}
		}
	}
	g := c.get("QG")
	if g.Quantity == nil || *g.Quantity != 0 {
		t.Errorf("GET the group: quantity %v, want 0", g.Quantity)
	}
	for _, v := range g.Variations {
		if v.Quantity == nil || *v.Quantity != 0 {
			t.Errorf("GET the group: variation %s has quantity %v, want 0", v.SKU, v.Quantity)
		}
	}
}
