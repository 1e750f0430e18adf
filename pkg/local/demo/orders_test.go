package demo_test

import (
	"context"
	"testing"

	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestSeedOrders seeds a small account and checks that the order history
// holds every invariant, with shipments and cancellations in it.
func TestSeedOrders(t *testing.T) {
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	ctx := context.Background()
	if err := demo.Seed(ctx, env.Deps, acct.ID, demo.Sizes{Warehouses: 2, Products: 12, Orders: 60}, nil); err != nil {
		t.Fatal(err)
	}
	if err := (orders.Service{Table: env.Deps.Table}).CheckInvariants(ctx, acct.ID); err != nil {
		t.Errorf("invariants: %v", err)
	}
	items, err := env.Deps.Table.QueryAll(ctx, store.PK(acct.ID, "O"))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 60 {
		t.Errorf("%d orders, want 60", len(items))
	}
	c := env.Client(t, acct)
	for _, q := range []string{"?shipment_status=all", "?shipment_status=partial", "?sb_status=cancelled"} {
		var list []orders.Order
		c.Do("GET", "/orders"+q, nil).JSON(t, &list)
		if len(list) == 0 {
			t.Errorf("no demo orders with %s", q)
		}
	}
}

// TestSeedTwice seeds one account twice, as `multisell seed` on the demo
// account does: the second run adds orders and tops up, duplicating
// nothing, and every invariant still holds.
func TestSeedTwice(t *testing.T) {
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	ctx := context.Background()
	sizes := demo.Sizes{Warehouses: 2, Products: 8, Orders: 20}
	if err := demo.Seed(ctx, env.Deps, acct.ID, sizes, nil); err != nil {
		t.Fatal(err)
	}
	sizes.Warehouses = 3
	if err := demo.Seed(ctx, env.Deps, acct.ID, sizes, nil); err != nil {
		t.Fatalf("second seed: %v", err)
	}
	if err := (orders.Service{Table: env.Deps.Table}).CheckInvariants(ctx, acct.ID); err != nil {
		t.Errorf("invariants: %v", err)
	}
	c := env.Client(t, acct)
	for path, want := range map[string]int{"/warehouses": 3, "/channels": 4, "/orders": 40} {
		var list []any
		c.Do("GET", path, nil).JSON(t, &list)
		if len(list) != want {
			t.Errorf("%s: %d, want %d", path, len(list), want)
		}
	}
}
