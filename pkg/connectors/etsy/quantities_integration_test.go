package etsy_test

import (
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
)

// colorProperty is Etsy's Primary color property.
const colorProperty = 200

// variationListing lists four products of one color each (prices, quantities and SKUs by
// color): our three SKUs and a fourth product multisell does not sell.
func variationListing(sb *sbx.Sandbox) int64 {
	name := "Primary color"
	product := func(sku, color string, value, cents, q int64) sbx.Product {
		return sbx.Product{SKU: sku, PropertyValues: []sbx.PropertyValue{{PropertyID: colorProperty, PropertyName: &name,
			ValueIDs: []int64{value}, Values: []string{color}}},
			Offerings: []sbx.Offering{{Quantity: q, IsEnabled: true, Price: sbx.Money{Amount: cents, Divisor: 100, CurrencyCode: "USD"}}}}
	}
	return sb.PutListing(shop, sbx.Inventory{Products: []sbx.Product{
		product("V-RED", "Red", 1, 2000, 1), product("V-GREEN", "Green", 2, 2150, 2),
		product("V-BLUE", "Blue", 3, 2299, 3), product("NOT-OURS", "Black", 4, 2550, 7)},
		PriceOnProperty: []int64{colorProperty}, QuantityOnProperty: []int64{colorProperty}, SKUOnProperty: []int64{colorProperty}})
}

// withoutQuantities is inv with our SKUs' quantities zeroed and no offering ids (Etsy gives
// an updated offering a new one): what a push must leave as it was, the products' ids too.
func withoutQuantities(inv sbx.Inventory, ours ...string) sbx.Inventory {
	out := inv
	out.Products = append([]sbx.Product(nil), inv.Products...)
	for i, p := range out.Products {
		p.Offerings = append([]sbx.Offering(nil), p.Offerings...)
		p.Offerings[0].OfferingID = 0
		if slices.Contains(ours, p.SKU) {
			p.Offerings[0].Quantity = 0
		}
		out.Products[i] = p
	}
	return out
}

// TestVariationListing: a listing of three of our SKUs and a fourth product: after 50 pushes,
// each of the three SKUs in one write of the whole inventory, the fourth product, every
// price and property value are unchanged, and our quantities are the last pushed.
func TestVariationListing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	listing := variationListing(f.sb)
	before, _ := f.sb.Inventory(shop, listing)
	s := f.session(t)
	ours := []string{"V-RED", "V-GREEN", "V-BLUE"}
	ref := ""
	for i := range 50 {
		var batch []connectors.QuantityPush
		for j, sku := range ours {
			batch = append(batch, connectors.QuantityPush{ChannelSKU: sku, ListingRef: ref, Quantity: int64(i + j)})
		}
		res, err := etsy.Connector.PushQuantities(ctx(t, time.Minute), s, batch)
		if err != nil {
			t.Fatalf("push %d: %v", i, err)
		}
		for j, r := range res {
			if !r.OK || r.ChannelSKU != ours[j] || r.ChannelQuantity != int64(i+j) {
				t.Fatalf("push %d: result %+v, want %s OK at %d", i, r, ours[j], i+j)
			}
			if i == 0 {
				ref = r.ListingRef
			}
		}
	}
	after, _ := f.sb.Inventory(shop, listing)
	for j, sku := range ours {
		if q, _ := f.sb.Quantity(shop, sku); q != int64(49+j) {
			t.Errorf("%s shows %d, want %d", sku, q, 49+j)
		}
	}
	if !reflect.DeepEqual(withoutQuantities(after, ours...), withoutQuantities(before, ours...)) {
		t.Errorf("the listing changed beyond our quantities:\nbefore %+v\nafter  %+v", before, after)
	}
	writes := 0
	for _, r := range f.sb.Requests() {
		if r.Op == "updateListingInventory" {
			writes++
		}
	}
	if writes != 50 {
		t.Errorf("%d inventory writes for 50 pushes of three SKUs of one listing, want 50", writes)
	}
}

// TestConcurrentChange: the seller changes the fourth product's quantity and price just
// after the connector read the inventory its change is built on: the read before the write
// sees it, the change is built again on it and kept, and our quantity is set.
func TestConcurrentChange(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	listing := variationListing(f.sb)
	reads := 0
	f.sb.AfterRead = func(_ *sbx.Shop, l *sbx.ListingState) {
		if reads++; reads == 1 && l.ListingID == listing {
			for i := range l.Inventory.Products {
				if p := &l.Inventory.Products[i]; p.SKU == "NOT-OURS" {
					p.Offerings[0].Quantity, p.Offerings[0].Price.Amount = 42, 2600
				}
			}
		}
	}
	res, err := etsy.Connector.PushQuantities(ctx(t, time.Minute), f.session(t), []connectors.QuantityPush{{ChannelSKU: "V-RED", ListingRef: strconv.FormatInt(listing, 10), Quantity: 9}})
	if err != nil || len(res) != 1 || !res[0].OK {
		t.Fatalf("push: %+v %v", res, err)
	}
	inv, _ := f.sb.Inventory(shop, listing)
	for _, p := range inv.Products {
		if p.SKU == "NOT-OURS" && !p.IsDeleted && (p.Offerings[0].Quantity != 42 || p.Offerings[0].Price.Amount != 2600) {
			t.Errorf("the seller's change was lost: %+v", p.Offerings[0])
		}
	}
	if q, _ := f.sb.Quantity(shop, "V-RED"); q != 9 {
		t.Errorf("V-RED shows %d, want 9", q)
	}
}

// TestPushFailures: a SKU on no listing, and a listing whose one quantity is all its
// products', fail alone; the listing's inventory is not written.
func TestPushFailures(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.sb.AddListing(shop, "SIMPLE", 3)
	price := sbx.Money{Amount: 1000, Divisor: 100, CurrencyCode: "USD"}
	name := "Size"
	f.sb.PutListing(shop, sbx.Inventory{Products: []sbx.Product{
		{SKU: "SHARED-S", PropertyValues: []sbx.PropertyValue{{PropertyID: 100, PropertyName: &name, ValueIDs: []int64{1}, Values: []string{"S"}}},
			Offerings: []sbx.Offering{{Quantity: 5, IsEnabled: true, Price: price}}},
		{SKU: "SHARED-M", PropertyValues: []sbx.PropertyValue{{PropertyID: 100, PropertyName: &name, ValueIDs: []int64{2}, Values: []string{"M"}}},
			Offerings: []sbx.Offering{{Quantity: 5, IsEnabled: true, Price: price}}}},
		SKUOnProperty: []int64{100}})
	res, err := etsy.Connector.PushQuantities(ctx(t, time.Minute), f.session(t), []connectors.QuantityPush{
		{ChannelSKU: "SIMPLE", Quantity: 4}, {ChannelSKU: "NOWHERE", Quantity: 1}, {ChannelSKU: "SHARED-S", Quantity: 2}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range res {
		got[r.ChannelSKU] = r.OK
	}
	if want := map[string]bool{"SIMPLE": true, "NOWHERE": false, "SHARED-S": false}; !reflect.DeepEqual(got, want) {
		t.Errorf("results %+v, want OK %v", res, want)
	}
	if q, _ := f.sb.Quantity(shop, "SHARED-M"); q != 5 {
		t.Errorf("SHARED-M shows %d, want 5", q)
	}
}
