package catalog_test

import (
	"strings"
	"testing"
)

// badInputCase is a request the catalog must refuse: the status it answers
// and a part of the body it answers with.
type badInputCase struct {
	method, path, body string
	wantStatus         int
	wantMsg            string
}

// name is the case's subtest name: the method, the path and the body, the
// long ones cut.
func (tc badInputCase) name() string {
	path, body := tc.path, tc.body
	if len(path) > 60 {
		path = path[:60] + "..."
	}
	if len(body) > 80 {
		body = body[:80] + "..."
	}
	return strings.TrimSpace(tc.method + " " + path + " " + body)
}

// badInputCases are the requests of TestBadInput, on an account that has
// the variation group OK (children OK-S and OK-M, varying on size) and the
// product P.
func badInputCases() []badInputCase {
	long := strings.Repeat("x", 256)
	oversize := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
	groupOK := `{"name":"G","child_skus":["P"],"variation_attributes":["size"]}`
	var cases []badInputCase
	for _, method := range []string{"POST", "PUT", "PATCH"} {
		cases = append(cases, []badInputCase{
			{method, productPath("P"), `{"name":`, 400, "not valid JSON"},
			{method, productPath("P"), `[{"name":"x"}]`, 400, "must be a JSON object"},
			{method, productPath("P"), `"name"`, 400, "must be a JSON object"},
			{method, productPath("P"), `null`, 400, "must be a JSON object"},
			{method, productPath("P"), ``, 400, "must be a JSON object"},
			{method, productPath("P"), oversize, 413, "too large"},
			{method, productPath("P"), `{"price":"abc"}`, 422, "price must be a number"},
			{method, productPath("P"), `{"price":1e400}`, 422, "price must be a number"},
			{method, productPath("P"), `{"price":-5}`, 422, "price must be between"},
			{method, productPath("P"), `{"name":["x"]}`, 422, "name must be a string"},
			{method, productPath("P"), `{"name":""}`, 422, "name can't be blank"},
			{method, productPath("P"), `{"condition":"like new"}`, 422, "condition must be one of new, used, reconditioned"},
			{method, productPath("P"), `{"condition":1}`, 422, "condition must be one of"},
			{method, productPath("P"), `{"features":{"a":1}}`, 422, "features must be a string"},
			{method, productPath("P"), `{"image_list":[["x"]]}`, 422, "image_list[0] must be a string"},
			{method, productPath("P"), `{"custom_attributes":"red"}`, 422, "custom_attributes must be an object"},
			{method, productPath("P"), `{"custom_attributes":{"a":[[[[1]]]]}}`, 422, "custom_attributes.a must be"},
			{method, productPath("P"), `{"description":"` + strings.Repeat("d", 20001) + `"}`, 422, "description is too long"},
			{method, productPath("OK-S"), `{"custom_attributes":{}}`, 422, "custom_attributes.size is required"},
			{method, productPath("NEW"), `{"price":1}`, 422, "name is required"},
			{method, productPath(long), `{"name":"x"}`, 422, "sku must be 1 to 255 characters"},
			{method, "/products/a%07b", `{"name":"x"}`, 422, "sku must be 1 to 255 characters"},
			{method, "/products/%E2%80%8F%0A", `{"name":"x"}`, 422, "sku must be"},
		}...)
	}
	return append(cases, []badInputCase{
		{"GET", productPath(long), "", 422, "sku must be"},
		{"GET", "/products/tab%09", "", 422, "sku must be"},
		{"GET", productPath("UNKNOWN"), "", 404, "Product not found"},
		{"DELETE", productPath(long), "", 422, "sku must be"},
		{"DELETE", productPath("UNKNOWN"), "", 404, "Product not found"},
		{"GET", "/products?page=0", "", 422, "page must be an integer"},
		{"GET", "/products?limit=abc", "", 422, "limit must be an integer"},
		{"GET", "/products?limit=-1", "", 422, "limit must be an integer"},
		{"GET", "/products?min_modified_at=yesterday", "", 422, "min_modified_at must be an ISO 8601"},
		{"GET", "/products?max_modified_at=2026-13-45", "", 422, "max_modified_at must be"},
		{"GET", "/products?skus=a%00b", "", 422, "skus must be"},
		{"GET", "/products?skus[]=" + long, "", 422, "skus must be"},
		{"GET", "/variation_groups?page=x", "", 422, "page must be"},
		{"GET", "/variation_groups?sku=%1F", "", 422, "skus must be"},
		{"PUT", groupPath("G"), `{"name":"G",`, 400, "not valid JSON"},
		{"PUT", groupPath("G"), `[]`, 400, "must be a JSON object"},
		{"PUT", groupPath("G"), `{"name":"` + strings.Repeat("x", 1<<20) + `"}`, 413, "too large"},
		{"PUT", groupPath("G"), `{"child_skus":["P"],"variation_attributes":["size"]}`, 422, "name is required"},
		{"PUT", groupPath("G"), `{"name":"G","variation_attributes":["size"]}`, 422, "child_skus is required"},
		{"PUT", groupPath("G"), `{"name":"G","child_skus":["P"]}`, 422, "variation_attributes is required"},
		{"PUT", groupPath("G"), `{"name":"G","child_skus":{"a":1},"variation_attributes":["size"]}`, 422, "child_skus must be"},
		{"PUT", groupPath("G"), `{"name":"G","child_skus":["P"],"variation_attributes":[1.5, null]}`, 422, "variation_attributes must be an array of strings"},
		{"PUT", groupPath("G"), `{"name":{},"child_skus":["P"],"variation_attributes":["size"]}`, 422, "name must be a string"},
		{"PUT", groupPath("G"), `{"name":"G","child_skus":["` + long + `"],"variation_attributes":["size"]}`, 422, "child_skus[0] must be 1 to 255"},
		{"PUT", groupPath("G"), `{"name":"G","child_skus":["UNKNOWN"],"variation_attributes":["size"]}`, 422, "product UNKNOWN not found"},
		{"PUT", groupPath("G"), groupOK, 422, "P has no custom attribute size"},
		{"PUT", groupPath(long), groupOK, 422, "sku must be"},
		{"PUT", "/variation_groups/%07", groupOK, 422, "sku must be"},
		{"DELETE", groupPath("UNKNOWN"), "", 404, "Variation group not found"},
		{"DELETE", groupPath("P"), "", 404, "Variation group not found"},
		{"DELETE", groupPath(long), "", 422, "sku must be"},
	}...)
}

// TestBadInput: every malformed, mistyped, oversize or unknown input is a
// clear 4xx, and none of them changes the catalog.
func TestBadInput(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("OK", "S", "M")
	c.putGroup("OK", groupBody("OK", kids...))
	c.put("P", map[string]any{"name": "P", "price": 1})
	before := c.snapshot()

	for _, tc := range badInputCases() {
		t.Run(tc.name(), func(t *testing.T) {
			var body any
			if tc.method != "GET" && tc.method != "DELETE" {
				body = tc.body
			}
			got := c.env.Client(t, c.acct).Do(tc.method, tc.path, body)
			if got.Status != tc.wantStatus || !strings.Contains(got.String(), tc.wantMsg) {
				t.Errorf("got %d %.200s, want %d with %q", got.Status, got.String(), tc.wantStatus, tc.wantMsg)
			}
		})
	}
	c.assertUnchanged(before)
}
