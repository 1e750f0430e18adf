package demo_test

import (
	"context"
	"testing"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestSeedCatalog seeds a small account and checks that its catalog has
// the requested number of products, in variation groups and stand-alone.
func TestSeedCatalog(t *testing.T) {
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	if err := demo.Seed(context.Background(), env.Deps, acct.ID, demo.Sizes{Warehouses: 1, Products: 25}, nil); err != nil {
		t.Fatal(err)
	}
	var products []catalog.Product
	env.Client(t, acct).Do("GET", "/products", nil).JSON(t, &products)
	var groups, children, alone int
	for _, p := range products {
		switch {
		case len(p.Variations) > 0:
			groups++
			for _, v := range p.Variations {
				if v.ParentSKU == nil || *v.ParentSKU != p.SKU || len(v.VariationFields) == 0 {
					t.Errorf("child %s of %s: %+v", v.SKU, p.SKU, v)
				}
			}
		case p.ParentSKU != nil:
			children++
		default:
			alone++
		}
		if p.Name == nil || p.Price == nil && len(p.Variations) == 0 {
			t.Errorf("product %s lacks a name or a price", p.SKU)
		}
	}
	if children+alone != 25 || groups < 2 || alone < 5 {
		t.Errorf("%d groups, %d children, %d stand-alone; want 25 products, in groups and alone", groups, children, alone)
	}
}
