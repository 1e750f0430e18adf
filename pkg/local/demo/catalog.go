package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/lenient"
)

func init() { register(20, "catalog", seedCatalog) }

// demoLine is a product line sold in variations: a variation group whose
// children are its sizes times its colors.
type demoLine struct {
	sku, name, brand, category string
	price, weight              float64
	sizes, colors              []string
	features                   []string
}

var demoLines = []demoLine{
	{"TEE-CLASSIC", "Classic Cotton T-Shirt", "Northwind Apparel", "Clothing > Shirts", 19.99, 0.4,
		[]string{"S", "M", "L", "XL"}, []string{"Black", "White", "Navy"},
		[]string{"100% combed cotton", "Pre-shrunk", "Tagless collar"}},
	{"HOODIE-ZIP", "Zip-Up Fleece Hoodie", "Northwind Apparel", "Clothing > Sweatshirts", 49.5, 0.9,
		[]string{"M", "L", "XL"}, []string{"Heather Grey", "Forest Green"},
		[]string{"Brushed fleece lining", "YKK zipper", "Kangaroo pockets"}},
	{"SNEAKER-TRAIL", "Trail Running Sneaker", "Stride Labs", "Shoes > Running", 89, 1.6,
		[]string{"8", "9", "10", "11"}, []string{"Slate Blue"},
		[]string{"Vibram outsole", "Waterproof membrane"}},
	{"MUG-ENAMEL", "Enamel Camp Mug 12 oz", "Campfire Co.", "Kitchen > Drinkware", 14, 0.5,
		nil, []string{"Red", "Sky Blue", "Pine Green"},
		[]string{"Steel core with enamel coating", "Dishwasher safe"}},
	{"LEGGING-FLEX", "Flex High-Rise Legging", "Stride Labs", "Clothing > Activewear", 39, 0.3,
		[]string{"XS", "S", "M", "L"}, []string{"Black", "Plum"},
		[]string{"Four-way stretch", "Hidden waistband pocket"}},
}

// demoItem is a product sold on its own.
type demoItem struct {
	prefix, name, brand, category string
	price, weight                 float64
	attrs                         map[string]any
}

var demoItems = []demoItem{
	{"AUD", "Wireless Earbuds Pro", "Soundwave", "Electronics > Audio", 79.99, 0.3, map[string]any{"battery_hours": 28, "bluetooth": "5.3"}},
	{"AUD", "Bookshelf Speaker Pair", "Soundwave", "Electronics > Audio", 149, 11.2, map[string]any{"watts": 50}},
	{"KIT", "Cast Iron Skillet 10 in", "Campfire Co.", "Kitchen > Cookware", 34.95, 5.1, map[string]any{"material": "cast iron", "pre_seasoned": true}},
	{"KIT", "Pour-Over Coffee Set", "Morning Ritual", "Kitchen > Coffee", 42, 1.8, map[string]any{"material": "borosilicate glass"}},
	{"OUT", "Ultralight Camping Hammock", "Trailhead Gear", "Outdoors > Camping", 59.99, 1.1, map[string]any{"capacity_lb": 400}},
	{"OUT", "Insulated Water Bottle 32 oz", "Trailhead Gear", "Outdoors > Hydration", 29.5, 0.9, map[string]any{"capacity_oz": 32}},
	{"HOM", "Linen Throw Pillow Cover", "Casa Verde", "Home > Decor", 18, 0.4, map[string]any{"material": "linen"}},
	{"HOM", "Soy Wax Candle - Cedar", "Casa Verde", "Home > Fragrance", 24, 1.2, map[string]any{"burn_hours": 50}},
	{"TOY", "Wooden Building Blocks (50 pcs)", "Little Makers", "Toys > Building", 32, 3.4, map[string]any{"age_min": 3}},
	{"BOK", "The Pocket Guide to Birds", "Field Notes Press", "Books > Nature", 12.99, 0.6, map[string]any{"pages": 224}},
}

// seedCatalog creates s.Products products through the API's code paths:
// about three in five are children of variation groups (product lines in
// sizes and colors), the rest stand-alone.
func seedCatalog(ctx context.Context, e *Env, s Sizes) error {
	svc := e.Deps.Catalog()
	children := s.Products * 3 / 5
	done := 0
	progress := func() {
		done++
		e.Progress("products", done, s.Products)
	}
	for i := 0; children > 0; i++ {
		line := demoLines[i%len(demoLines)]
		if n := i / len(demoLines); n > 0 {
			line.sku = fmt.Sprintf("%s-%d", line.sku, n+1)
		}
		made, err := seedLine(ctx, e, svc, line, children, progress)
		if err != nil {
			return err
		}
		children -= made
	}
	for i := 0; done < s.Products; i++ {
		if err := seedItem(ctx, e, svc, i); err != nil {
			return err
		}
		progress()
	}
	return nil
}

// seedLine creates up to max children of line and their group; it returns
// how many children it made.
func seedLine(ctx context.Context, e *Env, svc catalog.Service, line demoLine, max int, progress func()) (int, error) {
	sizes, keys := line.sizes, []string{"size", "color"}
	if sizes == nil {
		sizes, keys = []string{""}, []string{"color"}
	}
	var skus []string
	for _, size := range sizes {
		for _, color := range line.colors {
			if len(skus) == max || len(skus) == catalog.MaxChildren {
				break
			}
			sku := strings.Join(nonEmpty(line.sku, size, colorCode(color)), "-")
			attrs := map[string]any{"color": color}
			if size != "" {
				attrs["size"] = size
			}
			body := e.productBody(sku, line.name+" - "+strings.Join(nonEmpty(color, size), ", "), line.brand, line.category, line.price, line.weight)
			body["custom_attributes"] = attrs
			body["features"] = line.features
			if err := upsertProduct(ctx, e, svc, sku, body); err != nil {
				return 0, err
			}
			skus = append(skus, sku)
			progress()
		}
	}
	group := map[string]any{
		"name": line.name, "child_skus": skus, "variation_attributes": keys,
		"description": fmt.Sprintf("%s by %s.", line.name, line.brand),
		"images":      []string{"https://images.demo.example/" + line.sku + ".jpg"},
	}
	return len(skus), putGroup(ctx, e, svc, line.sku, group)
}

// tourSKU is the product of the README's quick tour: the first stand-alone
// product (Wireless Earbuds Pro), which every demo catalog has.
var tourSKU = itemSKU(0)

// itemSKU is the SKU of the i-th stand-alone product.
func itemSKU(i int) string { return fmt.Sprintf("%s-%04d", demoItems[i%len(demoItems)].prefix, 1001+i) }

// seedItem creates the i-th stand-alone product.
func seedItem(ctx context.Context, e *Env, svc catalog.Service, i int) error {
	it := demoItems[i%len(demoItems)]
	sku := itemSKU(i)
	name := it.name
	if n := i / len(demoItems); n > 0 {
		name = fmt.Sprintf("%s (edition %d)", name, n+1)
	}
	body := e.productBody(sku, name, it.brand, it.category, it.price, it.weight)
	body["custom_attributes"] = it.attrs
	body["features"] = []string{"Ships in 1-2 business days"}
	if it.prefix == "BOK" {
		body["isbn"] = fmt.Sprintf("978%010d", e.Rand.Int64N(1e10))
	}
	return upsertProduct(ctx, e, svc, sku, body)
}

// productBody is an upsert body with the fields every demo product has,
// prices and measures varied a little.
func (e *Env) productBody(sku, name, brand, category string, price, weight float64) map[string]any {
	price = math.Round(price*(0.9+0.2*e.Rand.Float64())*100) / 100
	return map[string]any{
		"name": name, "brand": brand, "manufacturer": brand, "category_name": category,
		"condition": "new", "price": price, "msrp": math.Round(price*1.2*100) / 100,
		"cost":           math.Round(price*0.45*100) / 100,
		"upc":            fmt.Sprintf("0%011d", e.Rand.Int64N(1e11)),
		"package_length": 4 + e.Rand.IntN(12), "package_width": 3 + e.Rand.IntN(8), "package_height": 1 + e.Rand.IntN(6),
		"package_unit_of_length": "in", "package_weight": weight, "package_unit_of_weight": "lb",
		"warranty":    "30-day returns",
		"description": fmt.Sprintf("%s from %s.", name, brand),
		"image_list":  []string{"https://images.demo.example/" + sku + ".jpg"},
	}
}

// upsertProduct upserts the product sku of the account from body, an
// upsert body validated as the API validates it.
func upsertProduct(ctx context.Context, e *Env, svc catalog.Service, sku string, body any) error {
	obj, err := decode(sku, body)
	if err != nil {
		return err
	}
	in, err := catalog.ParseProduct(obj)
	if err != nil {
		return fmt.Errorf("catalog %s: %w", sku, err)
	}
	if _, err := svc.Upsert(ctx, e.Account, sku, in); err != nil {
		return fmt.Errorf("catalog %s: %w", sku, err)
	}
	return nil
}

// putGroup creates the variation group sku of the account from body, a PUT
// /variation_groups body validated as the API validates it.
func putGroup(ctx context.Context, e *Env, svc catalog.Service, sku string, body any) error {
	obj, err := decode(sku, body)
	if err != nil {
		return err
	}
	in, err := catalog.ParseGroup(sku, obj)
	if err != nil {
		return fmt.Errorf("catalog %s: %w", sku, err)
	}
	if _, err := svc.PutGroup(ctx, e.Account, sku, in); err != nil {
		return fmt.Errorf("catalog %s: %w", sku, err)
	}
	return nil
}

// decode is body as the JSON object of a request.
func decode(sku string, body any) (lenient.Object, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("marshal %s: %w", sku, err)
	}
	obj, err := lenient.DecodeObject(string(b))
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", sku, err)
	}
	return obj, nil
}

// nonEmpty drops the empty strings of parts.
func nonEmpty(parts ...string) []string {
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// initials abbreviates a color for a SKU: "Heather Grey" is "HG", "Black"
// is "BLK"-like three letters.
func colorCode(color string) string {
	words := strings.Fields(strings.ToUpper(color))
	if len(words) == 1 {
		return words[0][:min(3, len(words[0]))]
	}
	var b strings.Builder
	for _, w := range words {
		b.WriteByte(w[0])
	}
	return b.String()
}
