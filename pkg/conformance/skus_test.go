package conformance_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// skuSets are SKUs at the edges of the SKU rule of pkg/sku (case-sensitive, 1 to 255
// characters, no control characters, URL-decoded once in paths): a world's stand-alone
// product, child and variation group.
var skuSets = []struct {
	name                  string
	product, child, group string
}{
	{"special characters", "A/B C+#?", "100% cotton %2F 50%", "x?y#z&w=1;a,b"},
	{"one character, case-sensitive", "a", "A", "b"},
	{"255 characters", strings.Repeat("a", 255), strings.Repeat("é", 255), strings.Repeat("€", 255)},
	{"255 four-byte characters", strings.Repeat("😀", 255), strings.Repeat("𝄞", 255), strings.Repeat("🀄", 255)},
}

// TestSKUs: a world built on edge SKUs works on every route: every GET answers 200 and
// the SKUs come back exactly as sent, in paths, bodies and query filters (the world's
// listing has the product's SKU as its channel SKU).
func TestSKUs(t *testing.T) {
	t.Parallel()
	rts := allRoutes(t)
	for _, set := range skuSets {
		t.Run(set.name, func(t *testing.T) {
			t.Parallel()
			w := newWorldWith(t, set.product, set.child, set.group)
			c := w.c
			for p, r := range w.snapshot(c, rts) {
				if !strings.HasPrefix(r, "200 ") {
					t.Errorf("GET %s: %s", short(p), short(r))
				}
			}
			q := url.QueryEscape
			var p struct {
				SKU string `json:"sku"`
			}
			for _, sku := range []string{set.product, set.child, set.group} {
				c.must(http.StatusOK, http.MethodGet, "/products/"+url.PathEscape(sku), nil, &p)
				if p.SKU != sku {
					t.Errorf("GET /products/{%s} is SKU %q", short(sku), short(p.SKU))
				}
			}
			var list []struct {
				SKU       string   `json:"sku"`
				ChildSKUs []string `json:"child_skus"`
			}
			c.must(http.StatusOK, http.MethodGet, "/products?sku[]="+q(set.product)+"&sku[]="+q(set.group), nil, &list)
			if len(list) != 2 {
				t.Errorf("GET /products?sku[]=: %d products, want 2", len(list))
			}
			c.must(http.StatusOK, http.MethodGet, "/variation_groups?skus="+q(set.group), nil, &list)
			if len(list) != 1 || list[0].SKU != set.group || len(list[0].ChildSKUs) != 1 || list[0].ChildSKUs[0] != set.child {
				t.Errorf("GET /variation_groups?skus=: %+v, want %s with child %s", list, short(set.group), short(set.child))
			}
			for _, sku := range []string{set.product, set.child} {
				c.must(http.StatusOK, http.MethodGet, "/inventory?sku="+q(sku), nil, &list)
				if len(list) != 1 || list[0].SKU != sku {
					t.Errorf("GET /inventory?sku=%s: %+v", short(sku), list)
				}
			}
			var o struct {
				Items []struct {
					SKU          string `json:"sku"`
					InventorySKU string `json:"inventory_sku"`
				} `json:"items"`
			}
			c.must(http.StatusOK, http.MethodGet, fmt.Sprintf("/orders/%d", w.Seq), nil, &o)
			if len(o.Items) != 1 || o.Items[0].SKU != set.product || o.Items[0].InventorySKU != set.product {
				t.Errorf("order %d items: %+v, want sku and inventory_sku %s", w.Seq, o.Items, short(set.product))
			}
			var ls []struct {
				ChannelUUID string  `json:"channel_uuid"`
				ChannelSKU  string  `json:"channel_sku"`
				SKU         *string `json:"sku"`
			}
			for _, path := range []string{"/listings", "/listings?sku=" + q(set.product), "/listings?channel_uuid=" + q(w.Channel),
				"/listings?channel_uuid=" + q(w.Channel) + "&sku=" + q(set.product)} {
				c.must(http.StatusOK, http.MethodGet, path, nil, &ls)
				if len(ls) != 1 || ls[0].ChannelUUID != w.Channel || ls[0].ChannelSKU != set.product || ls[0].SKU == nil || *ls[0].SKU != set.product {
					t.Errorf("GET %s: %+v, want the listing %s linked to itself", short(path), ls, short(set.product))
				}
			}
			for _, o := range []struct{ name, sku string }{{"child", set.child}, {"group", set.group}} {
				other := o.sku
				t.Run("no listing of the "+o.name, func(t *testing.T) {
					if r := c.in(t).must(http.StatusOK, http.MethodGet, "/listings?sku="+q(other), nil, nil); r.String() != "[]" {
						t.Errorf("GET /listings?sku=%s: %s, want [] (only %s is listed)", short(other), short(r.String()), short(set.product))
					}
				})
			}
			del := "/listings?channel_uuid=" + q(w.Channel) + "&channel_sku=" + q(set.product)
			c.must(http.StatusOK, http.MethodDelete, del, nil, nil)
			c.must(http.StatusNotFound, http.MethodDelete, del, nil, nil)
			if r := c.must(http.StatusOK, http.MethodGet, "/listings", nil, nil); r.String() != "[]" {
				t.Errorf("GET /listings after the delete: %s", short(r.String()))
			}
			c.must(http.StatusOK, http.MethodPatch, "/inventory", map[string]any{"inventory": []any{map[string]any{
				"sku": set.product, "warehouse_uuid": w.Warehouse, "available": 1}}}, nil)
			c.must(http.StatusOK, http.MethodDelete, "/variation_groups/"+url.PathEscape(set.group), nil, nil)
			c.must(http.StatusOK, http.MethodDelete, "/products/"+url.PathEscape(set.child), nil, nil)
			w.env.Drain(t)
		})
	}
}

// TestSKUsInBodies: every route with a body, sent a valid body naming an edge SKU, never
// answers 5xx (checkEnvelope), whatever it makes of the SKU.
func TestSKUsInBodies(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	rts := allRoutes(t)
	for _, set := range skuSets {
		x := w.ids
		x.Product, x.Listing = set.product, set.child
		for _, rt := range rts {
			if rt.hasBody() {
				w.c.do(rt.Method, x.path(t, rt), writeFor(t, rt).body(w.c, x))
			}
		}
	}
	w.env.Drain(t)
}
