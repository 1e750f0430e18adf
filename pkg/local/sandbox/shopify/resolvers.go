package shopify

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
)

// resolveRoot answers one root field of the operation, projected on its selection set; an
// error is a GraphQL error of the whole request.
func (s *Shop) resolveRoot(sh *shopState, kind ast.Operation, f *ast.Field, vars map[string]any) (any, *gqlError) {
	args := argMap(f.Arguments, vars)
	var v any
	switch f.Name {
	case "shop":
		v = map[string]any{"__typename": "Shop", "id": "gid://shopify/Shop/1", "name": sh.Domain, "myshopifyDomain": sh.Domain}
	case "location":
		id := str(args["id"])
		if args["id"] == nil {
			id = sh.Location // no id: the shop's primary location
		}
		if id == sh.Location || slices.Contains(sh.Others, id) {
			v = map[string]any{"__typename": "Location", "id": id, "name": "Sandbox location", "isActive": true}
		}
	case "currentAppInstallation":
		scopes := make([]any, len(sh.Scopes))
		for i, h := range sh.Scopes {
			scopes[i] = map[string]any{"__typename": "AccessScope", "handle": h, "description": h}
		}
		v = map[string]any{"__typename": "AppInstallation", "id": "gid://shopify/AppInstallation/1", "accessScopes": scopes}
	case "order":
		if o := sh.Orders[str(args["id"])]; o != nil {
			v = sh.order(o)
		}
	case "orders":
		v = connection(sh.orders(args), args)
	case "productVariants":
		v = connection(sh.variants(str(args["query"])), args)
	case "inventorySetQuantities", "fulfillmentCreate":
		return sh.mutate(f, args, vars)
	default:
		return nil, &gqlError{Message: "field " + f.Name + " is not served by the sandbox"}
	}
	return project(v, f.SelectionSet, vars), nil
}

// str is a string argument ("" when absent).
func str(v any) string {
	s, _ := v.(string)
	return s
}

// location is the shop's location.
func (sh *shopState) location() map[string]any {
	return map[string]any{"__typename": "Location", "id": sh.Location, "name": "Sandbox warehouse", "isActive": true}
}

// term is one term of a search query: key, comparison and value ("updated_at", ">", "...").
type term struct{ key, cmp, value string }

// terms reads a search query of key:value terms (values quoted with ' or " when they hold
// spaces), ignoring the connectives OR and AND.
func terms(q string) []term {
	var out []term
	for q = strings.TrimSpace(q); q != ""; q = strings.TrimSpace(q) {
		key, rest, ok := strings.Cut(q, ":")
		if !ok || strings.ContainsAny(key, " ") {
			_, q, _ = strings.Cut(q, " ") // a connective or a bare word
			if !ok {
				q = ""
			}
			continue
		}
		t := term{key: key}
		for _, c := range []string{">=", "<=", ">", "<"} {
			if r, ok := strings.CutPrefix(rest, c); ok {
				t.cmp, rest = c, r
				break
			}
		}
		if rest != "" && (rest[0] == '\'' || rest[0] == '"') {
			end := 1
			var b strings.Builder
			for ; end < len(rest) && rest[end] != rest[0]; end++ {
				if rest[end] == '\\' && end+1 < len(rest) {
					end++
				}
				b.WriteByte(rest[end])
			}
			t.value, q = b.String(), rest[min(end+1, len(rest)):]
		} else {
			t.value, q, _ = strings.Cut(rest, " ")
		}
		out = append(out, t)
	}
	return out
}

// allOrdersAge is how old an order an app without read_all_orders still sees (by its
// creation).
const allOrdersAge = 60 * 24 * time.Hour

// orders are the shop's orders the query filter keeps (updated_at with a comparison, name),
// sorted by args' sortKey; without read_all_orders, none older than allOrdersAge.
func (sh *shopState) orders(args map[string]any) []any {
	var list []*Order
	all := slices.Contains(sh.Scopes, "read_all_orders")
	keep := func(o *Order) bool {
		if !all && time.Since(o.CreatedAt) > allOrdersAge {
			return false
		}
		for _, t := range terms(str(args["query"])) {
			switch t.key {
			case "updated_at":
				at, err := time.Parse(time.RFC3339Nano, t.value)
				if err != nil {
					return false
				}
				c := o.UpdatedAt.Compare(at)
				if (t.cmp == ">" && c <= 0) || (t.cmp == ">=" && c < 0) || (t.cmp == "<" && c >= 0) || (t.cmp == "<=" && c > 0) {
					return false
				}
			case "name":
				if o.Name != t.value && o.Name != "#"+t.value {
					return false
				}
			}
		}
		return true
	}
	for _, o := range sh.Orders {
		if keep(o) {
			list = append(list, o)
		}
	}
	byUpdate := str(args["sortKey"]) == "UPDATED_AT"
	slices.SortFunc(list, func(a, b *Order) int {
		if byUpdate {
			return cmp.Or(a.UpdatedAt.Compare(b.UpdatedAt), strings.Compare(a.ID, b.ID))
		}
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	if args["reverse"] == true {
		slices.Reverse(list)
	}
	out := make([]any, len(list))
	for i, o := range list {
		out[i] = sh.order(o)
	}
	return out
}

// money is a MoneyBag of amount in the currency.
func money(amount, currency string) map[string]any {
	m := map[string]any{"__typename": "MoneyV2", "amount": amount, "currencyCode": currency}
	return map[string]any{"__typename": "MoneyBag", "shopMoney": m, "presentmentMoney": m}
}

// cents reads a decimal amount as cents (0 when unreadable).
func cents(s string) int64 {
	f, _ := strconv.ParseFloat(s, 64)
	return int64(f*100 + 0.5)
}

// decimal writes cents as a decimal amount.
func decimal(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

// order is an order as the API shows it.
func (sh *shopState) order(o *Order) map[string]any {
	var subtotal, remaining, total int64
	lines := make([]any, len(o.Lines))
	for i, l := range o.Lines {
		subtotal += cents(l.Price) * l.Quantity
		lines[i] = sh.line(o, l)
	}
	fos := make([]any, len(o.FulfillOrders))
	for i, fo := range o.FulfillOrders {
		fos[i] = sh.fulfillmentOrder(o, fo)
		for _, fl := range fo.Lines {
			remaining += fl.Remaining
			total += fl.Total
		}
	}
	var fs []any
	for _, f := range sh.Fulfills {
		if f.Order == o.ID {
			fs = append(fs, fulfillment(f))
		}
	}
	fulfilment := "UNFULFILLED"
	switch {
	case total > 0 && remaining == 0:
		fulfilment = "FULFILLED"
	case remaining < total:
		fulfilment = "PARTIALLY_FULFILLED"
	}
	var cancelled any
	if o.CancelledAt != nil {
		cancelled = o.CancelledAt.UTC().Format(time.RFC3339)
	}
	addr := map[string]any{"__typename": "MailingAddress", "name": o.Address.Name, "firstName": "Sandbox", "lastName": "Buyer",
		"company": nil, "address1": o.Address.Address1, "address2": nil, "city": o.Address.City, "province": o.Address.Province,
		"provinceCode": o.Address.Province, "zip": o.Address.Zip, "countryCodeV2": o.Address.Country, "phone": nil}
	return map[string]any{
		"__typename": "Order", "id": o.ID, "name": o.Name,
		"createdAt": o.CreatedAt.UTC().Format(time.RFC3339), "processedAt": o.CreatedAt.UTC().Format(time.RFC3339),
		"updatedAt": o.UpdatedAt.UTC().Format(time.RFC3339Nano), "cancelledAt": cancelled,
		"currencyCode": o.Currency, "displayFinancialStatus": o.FinancialStatus, "displayFulfillmentStatus": fulfilment,
		"email": o.Email, "note": nil,
		"subtotalPriceSet": money(decimal(subtotal), o.Currency), "totalTaxSet": money(o.Tax, o.Currency),
		"totalShippingPriceSet": money(o.Shipping, o.Currency), "totalDiscountsSet": money("0.00", o.Currency),
		"totalPriceSet":   money(decimal(subtotal+cents(o.Shipping)+cents(o.Tax)), o.Currency),
		"shippingAddress": addr, "billingAddress": addr,
		"shippingLine":      map[string]any{"__typename": "ShippingLine", "title": "Standard", "code": "STANDARD", "carrierIdentifier": nil},
		"lineItems":         resolver(func(args map[string]any) any { return connection(lines, args) }),
		"fulfillmentOrders": resolver(func(args map[string]any) any { return connection(fos, args) }),
		"fulfillments":      resolver(func(args map[string]any) any { return truncate(fs, args) }),
	}
}

// line is a line item as the API shows it.
func (sh *shopState) line(o *Order, l *Line) map[string]any {
	var unfulfilled int64
	for _, fo := range o.FulfillOrders {
		for _, fl := range fo.Lines {
			if fl.LineItem == l.ID && fo.Status != "CANCELLED" {
				unfulfilled += fl.Remaining
			}
		}
	}
	var variant any
	if v := sh.Variants[l.Variant]; v != nil {
		variant = sh.variant(v)
	}
	var sku any
	if l.SKU != "" {
		sku = l.SKU
	}
	return map[string]any{"__typename": "LineItem", "id": l.ID, "sku": sku, "title": l.Title, "name": l.Title, "requiresShipping": true,
		"quantity": l.Quantity, "currentQuantity": l.Current, "unfulfilledQuantity": min(unfulfilled, l.Current),
		"originalUnitPriceSet": money(l.Price, o.Currency), "originalTotalSet": money(decimal(cents(l.Price)*l.Quantity), o.Currency),
		"variant": variant}
}

// fulfillmentOrder is a fulfillment order as the API shows it.
func (sh *shopState) fulfillmentOrder(o *Order, fo *FulfillmentOrder) map[string]any {
	lines := make([]any, len(fo.Lines))
	for i, fl := range fo.Lines {
		var li any
		for _, l := range o.Lines {
			if l.ID == fl.LineItem {
				li = sh.line(o, l)
			}
		}
		lines[i] = map[string]any{"__typename": "FulfillmentOrderLineItem", "id": fl.ID, "totalQuantity": fl.Total,
			"remainingQuantity": fl.Remaining, "lineItem": li}
	}
	loc := map[string]any{"__typename": "Location", "id": fo.Location, "name": "Sandbox location"}
	return map[string]any{"__typename": "FulfillmentOrder", "id": fo.ID, "status": fo.Status,
		"assignedLocation": map[string]any{"__typename": "FulfillmentOrderAssignedLocation", "name": "Sandbox location", "location": loc},
		"lineItems":        resolver(func(args map[string]any) any { return connection(lines, args) })}
}

// variants are the shop's variants whose SKU a sku: term of the query names (every variant
// without one), by id.
func (sh *shopState) variants(query string) []any {
	skus := map[string]bool{}
	for _, t := range terms(query) {
		if t.key == "sku" {
			skus[t.value] = true
		}
	}
	var out []any
	for _, id := range slices.Sorted(maps.Keys(sh.Variants)) {
		if v := sh.Variants[id]; len(skus) == 0 || skus[v.SKU] {
			out = append(out, sh.variant(v))
		}
	}
	return out
}

// variant is a variant as the API shows it.
func (sh *shopState) variant(v *Variant) map[string]any {
	return map[string]any{"__typename": "ProductVariant", "id": v.ID, "sku": v.SKU, "title": v.Title, "inventoryItem": sh.item(v.InventoryItem, v.SKU)}
}

// item is an inventory item as the API shows it: its level at the shop's location.
func (sh *shopState) item(id, sku string) map[string]any {
	return map[string]any{"__typename": "InventoryItem", "id": id, "sku": sku, "tracked": true,
		"inventoryLevel": resolver(func(args map[string]any) any {
			if args["locationId"] != sh.Location {
				return nil
			}
			return map[string]any{"__typename": "InventoryLevel", "id": id + "/level", "location": sh.location(),
				"quantities": resolver(func(args map[string]any) any {
					names, _ := args["names"].([]any)
					var out []any
					for _, n := range names {
						if n == "available" || n == "on_hand" {
							out = append(out, map[string]any{"__typename": "InventoryQuantity", "id": id + "/" + str(n), "name": n, "quantity": sh.Levels[id]})
						}
					}
					return out
				}),
			}
		}),
	}
}

// mutate answers a mutation field, with Shopify's idempotency: a key given again with the
// same input answers what it answered, with another input a userError.
func (sh *shopState) mutate(f *ast.Field, args, vars map[string]any) (any, *gqlError) {
	key := ""
	if d := f.Directives.ForName("idempotent"); d != nil {
		key = str(argMap(d.Arguments, vars)["key"])
	}
	if key == "" && f.Name == "inventorySetQuantities" {
		return nil, &gqlError{Message: "The @idempotent directive with a key is required for inventorySetQuantities.", Extensions: map[string]any{"code": "BAD_REQUEST"}}
	}
	input, _ := json.Marshal(args)
	if prev, ok := sh.Keys[key]; ok && key != "" {
		if prev.Input == string(input) {
			return prev.Answer, nil
		}
		v := map[string]any{"userErrors": []any{map[string]any{"code": "IDEMPOTENCY_KEY_PARAMETER_MISMATCH", "field": nil,
			"message": "The idempotency key was used with different parameters."}}}
		return project(v, f.SelectionSet, vars), nil
	}
	var v map[string]any
	if f.Name == "inventorySetQuantities" {
		v = sh.setQuantities(args)
	} else {
		v = sh.fulfill(args)
	}
	answer := project(v, f.SelectionSet, vars)
	if key != "" {
		sh.Keys[key] = idempotent{Input: string(input), Answer: answer}
	}
	return answer, nil
}

// reasons are the reasons inventorySetQuantities takes.
var reasons = []string{"correction", "cycle_count_available", "damaged", "movement_created", "movement_updated",
	"movement_received", "movement_canceled", "other", "promotion", "quality_control", "received",
	"reservation_created", "reservation_deleted", "reservation_updated", "restock", "safety_stock", "shrinkage"}

// userError is an error of a mutation's input.
func userError(code, msg string, field ...string) map[string]any {
	e := map[string]any{"message": msg, "field": nil}
	if code != "" {
		e["code"] = code
	}
	if field != nil {
		e["field"] = field
	}
	return e
}

// setQuantities applies inventorySetQuantities: all of its quantities or, on any error, none.
func (sh *shopState) setQuantities(args map[string]any) map[string]any {
	in, _ := args["input"].(map[string]any)
	var errs []any
	if name := str(in["name"]); name != "available" && name != "on_hand" {
		errs = append(errs, userError("INVALID_NAME", "The quantity name must be either 'available' or 'on_hand'.", "input", "name"))
	}
	if !slices.Contains(reasons, str(in["reason"])) {
		errs = append(errs, userError("INVALID_REASON", "The specified reason is invalid.", "input", "reason"))
	}
	if u := str(in["referenceDocumentUri"]); u != "" && !strings.Contains(u, ":") {
		errs = append(errs, userError("INVALID_REFERENCE_DOCUMENT", "The specified reference document is invalid.", "input", "referenceDocumentUri"))
	}
	qs, _ := in["quantities"].([]any)
	seen := map[string]bool{}
	type set struct {
		item string
		q    int64
	}
	var sets []set
	for i, raw := range qs {
		q, _ := raw.(map[string]any)
		at := func(f string) []string { return []string{"input", "quantities", strconv.Itoa(i), f} }
		item := str(q["inventoryItemId"])
		n, _ := num(q["quantity"])
		cur, known := sh.Levels[item]
		from, hasFrom := q["changeFromQuantity"]
		switch {
		case !known:
			errs = append(errs, userError("INVALID_INVENTORY_ITEM", "The specified inventory item could not be found.", at("inventoryItemId")...))
		case str(q["locationId"]) != sh.Location:
			errs = append(errs, userError("INVALID_LOCATION", "The specified location could not be found.", at("locationId")...))
		case seen[item]:
			errs = append(errs, userError("NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR", "The combination of inventoryItemId and locationId must be unique.", at("inventoryItemId")...))
		case n < 0:
			errs = append(errs, userError("INVALID_QUANTITY_NEGATIVE", "The quantity can't be negative.", at("quantity")...))
		case n > 1_000_000_000:
			errs = append(errs, userError("INVALID_QUANTITY_TOO_HIGH", "The quantity can't be higher than 1,000,000,000.", at("quantity")...))
		case !hasFrom:
			errs = append(errs, userError("COMPARE_QUANTITY_REQUIRED", "changeFromQuantity is required: pass null to skip the check.", at("changeFromQuantity")...))
		case from != nil && func() bool { f, _ := num(from); return f != cur }():
			errs = append(errs, userError("CHANGE_FROM_QUANTITY_STALE", "The specified compare quantity is stale.", at("changeFromQuantity")...))
		default:
			sets = append(sets, set{item, n})
		}
		seen[item] = true
	}
	if errs != nil {
		return map[string]any{"inventoryAdjustmentGroup": nil, "userErrors": errs}
	}
	changes := make([]any, len(sets))
	for i, st := range sets {
		delta := st.q - sh.Levels[st.item]
		sh.Levels[st.item] = st.q
		changes[i] = map[string]any{"__typename": "InventoryChange", "name": str(in["name"]), "delta": delta,
			"quantityAfterChange": st.q, "item": sh.item(st.item, "")}
	}
	group := map[string]any{"__typename": "InventoryAdjustmentGroup", "id": sh.gid("InventoryAdjustmentGroup"),
		"reason": str(in["reason"]), "referenceDocumentUri": in["referenceDocumentUri"], "changes": changes}
	return map[string]any{"inventoryAdjustmentGroup": group, "userErrors": []any{}}
}

// fulfill applies fulfillmentCreate: the lines of open fulfillment orders of one order, or
// on any error nothing.
func (sh *shopState) fulfill(args map[string]any) map[string]any {
	in, _ := args["fulfillment"].(map[string]any)
	groups, _ := in["lineItemsByFulfillmentOrder"].([]any)
	fail := func(msg string, field ...string) map[string]any {
		return map[string]any{"fulfillment": nil, "userErrors": []any{userError("", msg, field...)}}
	}
	if len(groups) == 0 {
		return fail("Line items by fulfillment order must not be empty.", "fulfillment", "lineItemsByFulfillmentOrder")
	}
	var order *Order
	location := ""
	shipped := map[*FulfillmentOrderLine]int64{}
	for gi, raw := range groups {
		g, _ := raw.(map[string]any)
		at := []string{"fulfillment", "lineItemsByFulfillmentOrder", strconv.Itoa(gi)}
		o, fo := sh.findFulfillmentOrder(str(g["fulfillmentOrderId"]))
		switch {
		case fo == nil:
			return fail("Fulfillment order does not exist.", append(at, "fulfillmentOrderId")...)
		case order != nil && o != order:
			return fail("All fulfillment orders must belong to the same order.", append(at, "fulfillmentOrderId")...)
		case location != "" && fo.Location != location:
			return fail("All fulfillment orders must be assigned to the same location.", append(at, "fulfillmentOrderId")...)
		case fo.Status != "OPEN" && fo.Status != "IN_PROGRESS":
			return fail(fmt.Sprintf("Fulfillment order %s has an unfulfillable status= %s.", fo.ID, strings.ToLower(fo.Status)), append(at, "fulfillmentOrderId")...)
		}
		order, location = o, fo.Location
		lines, _ := g["fulfillmentOrderLineItems"].([]any)
		if lines == nil {
			for _, fl := range fo.Lines {
				if fl.Remaining > 0 {
					shipped[fl] = fl.Remaining
				}
			}
			continue
		}
		for _, rl := range lines {
			l, _ := rl.(map[string]any)
			q, _ := num(l["quantity"])
			i := slices.IndexFunc(fo.Lines, func(fl *FulfillmentOrderLine) bool { return fl.ID == str(l["id"]) })
			switch {
			case i < 0:
				return fail("Invalid fulfillment order line item id.", append(at, "fulfillmentOrderLineItems")...)
			case q < 1 || q+shipped[fo.Lines[i]] > fo.Lines[i].Remaining:
				return fail("Invalid fulfillment order line item quantity requested.", append(at, "fulfillmentOrderLineItems")...)
			}
			shipped[fo.Lines[i]] += q
		}
	}
	tr, _ := in["trackingInfo"].(map[string]any)
	f := sh.record(order, shipped, str(tr["company"]), str(tr["number"]), str(tr["url"]))
	return map[string]any{"fulfillment": fulfillment(f), "userErrors": []any{}}
}

// record makes a fulfillment of the order's fulfillment order lines shipped (quantities by
// line) with its tracking, closes what it fulfilled in full and marks the order updated (the
// lock held).
func (sh *shopState) record(order *Order, shipped map[*FulfillmentOrderLine]int64, company, number, url string) Fulfillment {
	f := Fulfillment{ID: sh.gid("Fulfillment"), Order: order.ID, Number: number, URL: url, Company: company,
		Lines: map[string]int64{}, At: time.Now().UTC()}
	for fl, q := range shipped {
		fl.Remaining -= q
		f.Lines[fl.ID] = q
	}
	for _, fo := range order.FulfillOrders {
		if fo.Status != "OPEN" && fo.Status != "IN_PROGRESS" {
			continue
		}
		fo.Status = "CLOSED"
		for _, fl := range fo.Lines {
			if fl.Remaining > 0 {
				fo.Status = "IN_PROGRESS"
			}
		}
	}
	order.UpdatedAt = time.Now()
	sh.Fulfills = append(sh.Fulfills, f)
	return f
}

// fulfillment is a fulfillment as the API shows it, its tracking as trackingInfo.
func fulfillment(f Fulfillment) map[string]any {
	orNil := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	info := []any{map[string]any{"__typename": "FulfillmentTrackingInfo", "number": f.Number, "url": orNil(f.URL), "company": orNil(f.Company)}}
	return map[string]any{"__typename": "Fulfillment", "id": f.ID, "status": "SUCCESS", "createdAt": f.At.UTC().Format(time.RFC3339Nano),
		"trackingInfo": resolver(func(args map[string]any) any { return truncate(info, args) })}
}

// truncate is a list field's items, at most the first argument's (a list, not a connection).
func truncate(items []any, args map[string]any) []any {
	if first, ok := num(args["first"]); ok && first >= 0 && int(first) < len(items) {
		return items[:first]
	}
	return items
}

// findFulfillmentOrder is the fulfillment order id and its order (nil, nil without one).
func (sh *shopState) findFulfillmentOrder(id string) (*Order, *FulfillmentOrder) {
	for _, o := range sh.Orders {
		for _, fo := range o.FulfillOrders {
			if fo.ID == id {
				return o, fo
			}
		}
	}
	return nil, nil
}
