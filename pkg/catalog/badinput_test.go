package catalog_test

import (
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("OK", "S", "M")
	c.putGroup("OK", groupBody("OK", kids...))
	c.put("P", map[string]any{"name": "P", "price": 1})
	before := c.snapshot()

	long := strings.Repeat("x", 256)
	oversize := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
	groupOK := `{"name":"G","child_skus":["P"],"variation_attributes":["size"]}`
	type call struct {
		method, path, body string
		status             int
		msg                string
	}
	var calls []call
	for _, method := range []string{"POST", "PUT", "PATCH"} {
		calls = append(calls,
			call{method, productPath("P"), `{"name":`, 400, "not valid JSON"},
			call{method, productPath("P"), `[{"name":"x"}]`, 400, "must be a JSON object"},
			call{method, productPath("P"), `"name"`, 400, "must be a JSON object"},
			call{method, productPath("P"), `null`, 400, "must be a JSON object"},
			call{method, productPath("P"), ``, 400, "must be a JSON object"},
			call{method, productPath("P"), oversize, 413, "too large"},
			call{method, productPath("P"), `{"price":"abc"}`, 422, "price must be a number"},
			call{method, productPath("P"), `{"price":1e400}`, 422, "price must be a number"},
			call{method, productPath("P"), `{"price":-5}`, 422, "price must be between"},
			call{method, productPath("P"), `{"quantity":"2.5"}`, 422, "quantity must be an integer"},
			call{method, productPath("P"), `{"name":["x"]}`, 422, "name must be a string"},
			call{method, productPath("P"), `{"name":""}`, 422, "name can't be blank"},
			call{method, productPath("P"), `{"condition":"like new"}`, 422, "condition must be one of new, used, reconditioned"},
			call{method, productPath("P"), `{"condition":1}`, 422, "condition must be one of"},
			call{method, productPath("P"), `{"features":{"a":1}}`, 422, "features must be a string"},
			call{method, productPath("P"), `{"image_list":[["x"]]}`, 422, "image_list[0] must be a string"},
			call{method, productPath("P"), `{"custom_attributes":"red"}`, 422, "custom_attributes must be an object"},
			call{method, productPath("P"), `{"custom_attributes":{"a":[[[[1]]]]}}`, 422, "custom_attributes.a must be"},
			call{method, productPath("P"), `{"description":"` + strings.Repeat("d", 20001) + `"}`, 422, "description is too long"},
			call{method, productPath("OK-S"), `{"custom_attributes":{}}`, 422, "custom_attributes.size is required"},
			call{method, productPath("NEW"), `{"price":1}`, 422, "name is required"},
			call{method, productPath(long), `{"name":"x"}`, 422, "sku must be 1 to 255 characters"},
			call{method, "/products/a%07b", `{"name":"x"}`, 422, "sku must be 1 to 255 characters"},
			call{method, "/products/%E2%80%8F%0A", `{"name":"x"}`, 422, "sku must be"},
		)
	}
	calls = append(calls,
		call{"GET", productPath(long), "", 422, "sku must be"},
		call{"GET", "/products/tab%09", "", 422, "sku must be"},
		call{"GET", productPath("UNKNOWN"), "", 404, "Product not found"},
		call{"DELETE", productPath(long), "", 422, "sku must be"},
		call{"DELETE", productPath("UNKNOWN"), "", 404, "Product not found"},
		call{"GET", "/products?page=0", "", 422, "page must be an integer"},
		call{"GET", "/products?limit=abc", "", 422, "limit must be an integer"},
		call{"GET", "/products?limit=-1", "", 422, "limit must be an integer"},
		call{"GET", "/products?min_modified_at=yesterday", "", 422, "min_modified_at must be an ISO 8601"},
		call{"GET", "/products?max_modified_at=2026-13-45", "", 422, "max_modified_at must be"},
		call{"GET", "/products?skus=a%00b", "", 422, "skus must be"},
		call{"GET", "/products?skus[]=" + long, "", 422, "skus must be"},
		call{"GET", "/variation_groups?page=x", "", 422, "page must be"},
		call{"GET", "/variation_groups?sku=%1F", "", 422, "skus must be"},
		call{"PUT", groupPath("G"), `{"name":"G",`, 400, "not valid JSON"},
		call{"PUT", groupPath("G"), `[]`, 400, "must be a JSON object"},
		call{"PUT", groupPath("G"), `{"name":"` + strings.Repeat("x", 1<<20) + `"}`, 413, "too large"},
		call{"PUT", groupPath("G"), `{"child_skus":["P"],"variation_attributes":["size"]}`, 422, "name is required"},
		call{"PUT", groupPath("G"), `{"name":"G","variation_attributes":["size"]}`, 422, "child_skus is required"},
		call{"PUT", groupPath("G"), `{"name":"G","child_skus":["P"]}`, 422, "variation_attributes is required"},
		call{"PUT", groupPath("G"), `{"name":"G","child_skus":{"a":1},"variation_attributes":["size"]}`, 422, "child_skus must be"},
		call{"PUT", groupPath("G"), `{"name":"G","child_skus":["P"],"variation_attributes":[1.5, null]}`, 422, "variation_attributes must be an array of strings"},
		call{"PUT", groupPath("G"), `{"name":{},"child_skus":["P"],"variation_attributes":["size"]}`, 422, "name must be a string"},
		call{"PUT", groupPath("G"), `{"name":"G","child_skus":["` + long + `"],"variation_attributes":["size"]}`, 422, "child_skus[0] must be 1 to 255"},
		call{"PUT", groupPath("G"), `{"name":"G","child_skus":["UNKNOWN"],"variation_attributes":["size"]}`, 422, "product UNKNOWN not found"},
		call{"PUT", groupPath("G"), groupOK, 422, "P has no custom attribute size"},
		call{"PUT", groupPath(long), groupOK, 422, "sku must be"},
		call{"PUT", "/variation_groups/%07", groupOK, 422, "sku must be"},
		call{"DELETE", groupPath("UNKNOWN"), "", 404, "Variation group not found"},
		call{"DELETE", groupPath("P"), "", 404, "Variation group not found"},
		call{"DELETE", groupPath(long), "", 422, "sku must be"},
	)
	for _, tc := range calls {
		var body any
		if tc.method != "GET" && tc.method != "DELETE" {
			body = tc.body
		}
		r := c.Do(tc.method, tc.path, body)
		if r.Status != tc.status || !strings.Contains(r.String(), tc.msg) {
			path := tc.path
			if len(path) > 60 {
				path = path[:60] + "..."
			}
			b := tc.body
			if len(b) > 80 {
				b = b[:80] + "..."
			}
			t.Errorf("%s %s %s: %d %.200s, want %d with %q", tc.method, path, b, r.Status, r.String(), tc.status, tc.msg)
		}
	}
	c.assertUnchanged(before)
}
