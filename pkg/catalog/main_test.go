package catalog_test

import (
	"net/url"
	"testing"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// catalogClient is an API client of a fresh account, with helpers for the
// catalog endpoints that fail the test on an unexpected status.
type catalogClient struct {
	*testenv.Client
	t    testing.TB
	env  *testenv.Env
	acct testenv.Account
}

// newClient returns a client of a new account.
func newClient(t testing.TB) *catalogClient {
	t.Helper()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	return &catalogClient{Client: env.Client(t, acct), t: t, env: env, acct: acct}
}

// productPath is /products/{sku} with the SKU escaped.
func productPath(sku string) string { return "/products/" + url.PathEscape(sku) }

// groupPath is /variation_groups/{sku} with the SKU escaped.
func groupPath(sku string) string { return "/variation_groups/" + url.PathEscape(sku) }

// expect sends a request and fails the test unless the status is want.
func (c *catalogClient) expect(want int, method, path string, body any) *testenv.Response {
	c.t.Helper()
	r := c.Do(method, path, body)
	if r.Status != want {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, r.Status, want, r.String())
	}
	return r
}

// put upserts a product and returns it.
func (c *catalogClient) put(sku string, body any) catalog.Product {
	c.t.Helper()
	var p catalog.Product
	c.expect(200, "PUT", productPath(sku), body).JSON(c.t, &p)
	return p
}

// get reads a product.
func (c *catalogClient) get(sku string) catalog.Product {
	c.t.Helper()
	var p catalog.Product
	c.expect(200, "GET", productPath(sku), nil).JSON(c.t, &p)
	return p
}

// putGroup creates or replaces a variation group and returns it.
func (c *catalogClient) putGroup(sku string, body any) catalog.VariationGroup {
	c.t.Helper()
	var g catalog.VariationGroup
	c.expect(200, "PUT", groupPath(sku), body).JSON(c.t, &g)
	return g
}

// list reads GET path as a list of products.
func (c *catalogClient) list(path string) []catalog.Product {
	c.t.Helper()
	var ps []catalog.Product
	c.expect(200, "GET", path, nil).JSON(c.t, &ps)
	return ps
}

// skusOf returns the SKUs of products, in order.
func skusOf(ps []catalog.Product) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.SKU)
	}
	return out
}

// snapshot is the account's whole catalog as the API returns it.
type snapshot struct{ products, groups string }

// snapshot reads every product and group.
func (c *catalogClient) snapshot() snapshot {
	c.t.Helper()
	return snapshot{
		products: c.expect(200, "GET", "/products", nil).String(),
		groups:   c.expect(200, "GET", "/variation_groups", nil).String(),
	}
}

// assertUnchanged fails the test if the catalog differs from before.
func (c *catalogClient) assertUnchanged(before snapshot) {
	c.t.Helper()
	if after := c.snapshot(); after != before {
		c.t.Errorf("the catalog changed:\nbefore %+v\nafter  %+v", before, after)
	}
}
