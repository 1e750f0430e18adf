package demo_test

import (
	"context"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/money"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/shipments"
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
	if err := env.Deps.Orders().CheckInvariants(ctx, acct.ID); err != nil {
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
	var all []orders.Order
	c.Do("GET", "/orders?limit=100", nil).JSON(t, &all)
	var ships []shipments.View
	c.Do("GET", "/shipments?limit=100", nil).JSON(t, &ships)
	checkShopLike(t, all, ships)
	var open []orders.Order
	c.Do("GET", "/orders?sb_status=open&limit=1", nil).JSON(t, &open)
	checkFirstOpen(t, open)
}

// checkShopLike checks that the demo orders and their shipments read like
// a shop's: money consistent with the lines, each line's status following
// its shipments, dates in the past and in order.
func checkShopLike(t *testing.T, all []orders.Order, ships []shipments.View) {
	t.Helper()
	now := isotime.Format(time.Now())
	orderedAt := map[int64]string{}
	for _, o := range all {
		orderedAt[o.Seq] = o.OrderedAt
		t.Run(o.DisplayRef, func(t *testing.T) {
			var subtotal, tax int64
			for _, it := range o.Items {
				if got, want := cents(it.Total), cents(it.UnitPrice)*int64(it.Quantity); got != want {
					t.Errorf("line %s: total %d cents, want unit_price x quantity = %d", it.OrderItemRef, got, want)
				}
				subtotal += cents(it.Total)
				tax += cents(it.Tax)
				if got, want := deref(it.Status), wantStatus(o, it); got != want {
					t.Errorf("line %s (%d of %d shipped, cancelled %v): status %q, want %q", it.OrderItemRef, it.QuantityFulfilled, it.Quantity, it.CancelledAt != nil, got, want)
				}
			}
			for _, m := range []struct {
				name      string
				got, want int64
			}{
				{"subtotal", cents(o.Subtotal), subtotal},
				{"tax", cents(o.Tax), tax},
				{"total", cents(o.Total), cents(o.Subtotal) - cents(o.Discount) + cents(o.Tax) + cents(o.ShippingCost)},
			} {
				if m.got != m.want {
					t.Errorf("%s = %d cents, want %d", m.name, m.got, m.want)
				}
			}
			if o.OrderedAt >= now {
				t.Errorf("ordered_at %s is not in the past", o.OrderedAt)
			}
			for _, d := range []struct {
				name string
				at   *string
				want string // at or after this
			}{
				{"paid_at", o.PaidAt, o.OrderedAt},
				{"cancelled_at", o.CancelledAt, o.OrderedAt},
				{"shipped_at", o.ShippedAt, max(o.OrderedAt, deref(o.PaidAt))},
			} {
				if d.at != nil && (*d.at < d.want || *d.at > now) {
					t.Errorf("%s %s: want from %s to now", d.name, *d.at, d.want)
				}
			}
		})
	}
	for _, sh := range ships {
		if sh.ShippedAt < orderedAt[sh.Seq] || sh.ShippedAt > now {
			t.Errorf("shipment %s of order %d (ordered %s) shipped at %s", sh.ID, sh.Seq, orderedAt[sh.Seq], sh.ShippedAt)
		}
	}
}

// checkFirstOpen checks that the first open order (the quick tour's) is
// paid, not shipped, and allocated in full: a shipment of it succeeds.
func checkFirstOpen(t *testing.T, open []orders.Order) {
	t.Helper()
	if len(open) == 0 {
		t.Fatal("no open order")
	}
	o := open[0]
	if o.PaymentStatus != orders.All || o.ShipmentStatus != orders.None {
		t.Errorf("first open order %d: sb_payment_status %s, shipment_status %s; want all, none", o.Seq, o.PaymentStatus, o.ShipmentStatus)
	}
	for _, it := range o.Items {
		allocated := 0
		for _, w := range it.Warehouses {
			allocated += w.Quantity
		}
		if it.InventorySKU == nil || allocated != it.Quantity {
			t.Errorf("first open order %d, line %s: %d of %d allocated (inventory_sku %v)", o.Seq, it.SKU, allocated, it.Quantity, it.InventorySKU)
		}
	}
}

// wantStatus is the channel status a line of o has once its shipments are
// reported.
func wantStatus(o orders.Order, it orders.Item) string {
	switch {
	case it.QuantityFulfilled >= it.Quantity:
		return "Shipped"
	case it.QuantityFulfilled > 0:
		return "PartiallyShipped"
	case it.CancelledAt != nil || o.CancelledAt != nil:
		return "Cancelled"
	}
	return "Unshipped"
}

// cents is an amount in cents (0 for null).
func cents(v *money.Amount) int64 {
	if v == nil {
		return 0
	}
	return int64(*v) / int64(money.Cents(1))
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
	if err := env.Deps.Orders().CheckInvariants(ctx, acct.ID); err != nil {
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
