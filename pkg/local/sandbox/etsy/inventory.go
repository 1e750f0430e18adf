package etsy

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/money"
)

// Etsy's bounds of an offering (the listing rules of Etsy's seller handbook; the document
// gives none): a quantity of 0 to 999, a price above 0 up to 50,000.
const (
	maxQuantity = 999
	maxPrice    = 50000
)

// check validates an updateListingInventory body as Etsy does and returns the products it
// makes (the ids of old products with the same property values kept), or the message of
// its 400:
//   - at least one product; each with exactly one offering, whose price, quantity and
//     is_enabled are given, the price above 0 with at most two decimals, the quantity 0 to
//     999;
//   - property values with a property id, as many value ids as values, no parentheses in a
//     value; at most two properties, the same ones on every product, no two products with
//     the same values;
//   - each *_on_property names properties the products have, and two products that agree on
//     those properties agree on the price, quantity or SKU (an empty one: every product has
//     the same), the description of updateListingInventory.
func check(in UpdateInventory, old []Product) ([]Product, string) {
	if len(in.Products) == 0 {
		return nil, "products is required: a listing has at least one product"
	}
	currency := "USD"
	for _, p := range old {
		for _, o := range p.Offerings {
			currency = cmp.Or(o.Price.CurrencyCode, currency)
		}
	}
	var props []int64
	seen := map[string]bool{}
	out := make([]Product, 0, len(in.Products))
	for i, p := range in.Products {
		np, ids, msg := product(i, p, currency)
		if msg != "" {
			return nil, msg
		}
		if i == 0 {
			props = ids
		} else if !slices.Equal(ids, props) {
			return nil, fmt.Sprintf("products[%d] has other properties than products[0]: every product has the same", i)
		}
		k := valuesKey(np)
		if seen[k] {
			return nil, fmt.Sprintf("products[%d] has the property values of another product", i)
		}
		seen[k] = true
		for _, o := range old {
			if !o.IsDeleted && valuesKey(o) == k {
				np.ProductID = o.ProductID
			}
		}
		out = append(out, np)
	}
	for _, on := range [][]int64{in.PriceOnProperty, in.QuantityOnProperty, in.SKUOnProperty} {
		for _, id := range on {
			if !slices.Contains(props, id) {
				return nil, fmt.Sprintf("property %d of an *_on_property is no property of the products", id)
			}
		}
	}
	for i := range out {
		for j := range i {
			a, b := out[i], out[j]
			switch {
			case agree(a, b, in.PriceOnProperty) && a.Offerings[0].Price != b.Offerings[0].Price:
				return nil, fmt.Sprintf("products[%d] and products[%d] differ in price, which varies by no property that tells them apart (price_on_property)", j, i)
			case agree(a, b, in.QuantityOnProperty) && a.Offerings[0].Quantity != b.Offerings[0].Quantity:
				return nil, fmt.Sprintf("products[%d] and products[%d] differ in quantity, which varies by no property that tells them apart (quantity_on_property)", j, i)
			case agree(a, b, in.SKUOnProperty) && a.SKU != b.SKU:
				return nil, fmt.Sprintf("products[%d] and products[%d] differ in sku, which varies by no property that tells them apart (sku_on_property)", j, i)
			}
		}
	}
	return out, ""
}

// product is the i-th product of the body, its property ids in order, or the message of its
// refusal.
func product(i int, p UpdateProduct, currency string) (Product, []int64, string) {
	if len(p.Offerings) != 1 {
		return Product{}, nil, fmt.Sprintf("products[%d] must have exactly one offering", i)
	}
	o := p.Offerings[0]
	if o.Price == nil || o.Quantity == nil || o.IsEnabled == nil {
		return Product{}, nil, fmt.Sprintf("products[%d].offerings[0] needs price, quantity and is_enabled", i)
	}
	price, err := money.Parse(o.Price.String())
	if err != nil || price <= 0 || price > money.Amount(maxPrice*1_000_000) || price%10_000 != 0 {
		return Product{}, nil, fmt.Sprintf("products[%d].offerings[0].price must be above 0 and at most %d, with at most two decimals", i, maxPrice)
	}
	if *o.Quantity < 0 || *o.Quantity > maxQuantity {
		return Product{}, nil, fmt.Sprintf("products[%d].offerings[0].quantity must be 0 to %d", i, maxQuantity)
	}
	np := Product{SKU: deref(p.SKU), Offerings: []Offering{{Quantity: *o.Quantity, IsEnabled: *o.IsEnabled,
		Price: Money{Amount: int64(price) / 10_000, Divisor: 100, CurrencyCode: currency}}}}
	var ids []int64
	if len(p.PropertyValues) > 2 {
		return Product{}, nil, fmt.Sprintf("products[%d] has more than two properties", i)
	}
	for j, v := range p.PropertyValues {
		if v.PropertyID < 1 || len(v.ValueIDs) == 0 || len(v.ValueIDs) != len(v.Values) {
			return Product{}, nil, fmt.Sprintf("products[%d].property_values[%d] needs property_id and as many value_ids as values", i, j)
		}
		for _, s := range v.Values {
			if strings.ContainsAny(s, "()") {
				return Product{}, nil, fmt.Sprintf("products[%d].property_values[%d]: parenthesis characters are not allowed", i, j)
			}
		}
		name := v.PropertyName
		np.PropertyValues = append(np.PropertyValues, PropertyValue{PropertyID: v.PropertyID, PropertyName: &name,
			ScaleID: v.ScaleID, ValueIDs: v.ValueIDs, Values: v.Values})
		ids = append(ids, v.PropertyID)
	}
	slices.Sort(ids)
	return np, ids, ""
}

// deref is *s, "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// valuesKey names a product's property values.
func valuesKey(p Product) string {
	var parts []string
	for _, v := range p.PropertyValues {
		ids := make([]string, len(v.ValueIDs))
		for i, id := range v.ValueIDs {
			ids[i] = strconv.FormatInt(id, 10)
		}
		parts = append(parts, strconv.FormatInt(v.PropertyID, 10)+"="+strings.Join(ids, ","))
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

// agree reports whether a and b have the same values of the properties props.
func agree(a, b Product, props []int64) bool {
	for _, id := range props {
		if !slices.EqualFunc(valuesOf(a, id), valuesOf(b, id), func(x, y int64) bool { return x == y }) {
			return false
		}
	}
	return true
}

// valuesOf is p's value ids of the property id.
func valuesOf(p Product, id int64) []int64 {
	for _, v := range p.PropertyValues {
		if v.PropertyID == id {
			return v.ValueIDs
		}
	}
	return nil
}
