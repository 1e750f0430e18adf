package shopify

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// setAttempts bounds the mutations of one push whose compare quantities went stale (each
// re-reads the levels that changed).
const setAttempts = 3

// variantsQuery finds variants by SKU with their inventory item and its available quantity
// at the location.
const variantsQuery = `query Variants($first: Int!, $query: String!, $location: ID!) {
  productVariants(first: $first, query: $query) {
    nodes { sku inventoryItem { id inventoryLevel(locationId: $location) { quantities(names: ["available"]) { name quantity } } } }
  }
}`

// setMutation sets available quantities, compare-and-swap, with an idempotency key.
const setMutation = `mutation Set($input: InventorySetQuantitiesInput!, $key: String!) {
  inventorySetQuantities(input: $input) @idempotent(key: $key) {
    inventoryAdjustmentGroup { id }
    userErrors { code field message }
  }
}`

// level is what a variant look-up found of a SKU: its inventory item and available quantity
// at the location (nil when not stocked there).
type level struct {
	item      string
	available *int64
}

// variantsAnswer is variantsQuery's data.
type variantsAnswer struct {
	ProductVariants struct {
		Nodes []struct {
			SKU           *string `json:"sku"`
			InventoryItem struct {
				ID             string `json:"id"`
				InventoryLevel *struct {
					Quantities []struct {
						Name     string `json:"name"`
						Quantity int64  `json:"quantity"`
					} `json:"quantities"`
				} `json:"inventoryLevel"`
			} `json:"inventoryItem"`
		} `json:"nodes"`
	} `json:"productVariants"`
}

// levels reads variantsQuery's data: the level of each SKU found (the first variant of a
// SKU several have).
func (a variantsAnswer) levels() map[string]level {
	out := map[string]level{}
	for _, n := range a.ProductVariants.Nodes {
		sku := deref(n.SKU)
		if _, ok := out[sku]; ok || sku == "" || n.InventoryItem.ID == "" {
			continue
		}
		l := level{item: n.InventoryItem.ID}
		if il := n.InventoryItem.InventoryLevel; il != nil {
			for _, q := range il.Quantities {
				if q.Name == "available" {
					l.available = &q.Quantity
				}
			}
		}
		out[sku] = l
	}
	return out
}

// skuQuery is the search query of the variants of skus.
func skuQuery(skus []string) string {
	terms := make([]string, len(skus))
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	for i, s := range skus {
		terms[i] = `sku:"` + r.Replace(s) + `"`
	}
	return strings.Join(terms, " OR ")
}

// lookup finds the levels of skus at the location.
func lookup(ctx context.Context, s *connectors.Session, skus []string) (map[string]level, error) {
	var a variantsAnswer
	vars := map[string]any{"first": len(skus), "query": skuQuery(skus), "location": s.Credentials.(credentials).LocationID}
	if err := call(ctx, s, variantsQuery, vars, queryCost(variantsQuery, vars), &a); err != nil {
		return nil, err
	}
	return a.levels(), nil
}

// pending is one push of a batch on its way: its inventory item, the quantity it expects
// Shopify to show (nil: no check) and whether it was looked up.
type pending struct {
	push   connectors.QuantityPush
	item   string
	from   *int64
	looked bool
	result *connectors.QuantityResult
}

// PushQuantities implements connectors.Connector: the batch's available quantities at the
// location in one inventorySetQuantities. A push whose listing ref is its inventory item
// expects the quantity the channel last reported (none known: no check); the others are
// looked up by SKU in one query, which reads their level too. A compare quantity Shopify
// says is stale is read again and the mutation made again (at most setAttempts times).
// Each listing's result carries its inventory item as its listing ref.
func (c *connector) PushQuantities(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	ps := make([]*pending, len(batch))
	nonce := rand.Text()
	var find []*pending
	for i, p := range batch {
		ps[i] = &pending{push: p}
		if strings.HasPrefix(p.ListingRef, "gid://shopify/InventoryItem/") {
			ps[i].item, ps[i].from = p.ListingRef, p.ChannelQuantity
		} else {
			find = append(find, ps[i])
		}
	}
	for attempt := 0; ; attempt++ {
		if err := relook(ctx, s, find); err != nil {
			return nil, err
		}
		var open []*pending
		for _, p := range ps {
			if p.result == nil {
				open = append(open, p)
			}
		}
		if len(open) == 0 {
			break
		}
		stale, err := set(ctx, s, nonce, open)
		if err != nil {
			return nil, err
		}
		if len(stale) > 0 && attempt+1 == setAttempts {
			for _, p := range stale {
				p.result = &connectors.QuantityResult{ChannelSKU: p.push.ChannelSKU, ListingRef: p.item,
					Error: fmt.Sprintf("shopify: the available quantity of %s kept changing in Shopify while it was set", p.push.ChannelSKU)}
			}
			break
		}
		find = stale
	}
	out := make([]connectors.QuantityResult, len(ps))
	for i, p := range ps {
		out[i] = *p.result
	}
	return out, nil
}

// relook looks the pushes up by SKU: their inventory item and its level, or their failed result.
func relook(ctx context.Context, s *connectors.Session, ps []*pending) error {
	if len(ps) == 0 {
		return nil
	}
	skus := make([]string, len(ps))
	for i, p := range ps {
		skus[i] = p.push.ChannelSKU
	}
	found, err := lookup(ctx, s, skus)
	if err != nil {
		return err
	}
	for _, p := range ps {
		l, ok := found[p.push.ChannelSKU]
		p.looked = true
		switch {
		case !ok:
			p.result = &connectors.QuantityResult{ChannelSKU: p.push.ChannelSKU, Error: "shopify: no variant of the shop has the SKU " + strconv.Quote(p.push.ChannelSKU)}
		case l.available == nil:
			p.result = &connectors.QuantityResult{ChannelSKU: p.push.ChannelSKU, ListingRef: l.item, Error: "shopify: the variant of SKU " + strconv.Quote(p.push.ChannelSKU) + " is not stocked at the channel's location"}
		default:
			p.item, p.from = l.item, l.available
		}
	}
	return nil
}

// set makes one mutation of the open pushes. It answers each push, but those whose compare
// quantity was stale (or whose inventory item, kept on the listing, is gone), which it
// returns to be looked up again; Shopify applies all of a mutation or none, so the others
// are set again with them.
func set(ctx context.Context, s *connectors.Session, nonce string, open []*pending) ([]*pending, error) {
	cr := s.Credentials.(credentials)
	quantities := make([]map[string]any, len(open))
	for i, p := range open {
		var from any
		if p.from != nil {
			from = *p.from
		}
		quantities[i] = map[string]any{"inventoryItemId": p.item, "locationId": cr.LocationID,
			"quantity": p.push.Quantity, "changeFromQuantity": from}
	}
	input := map[string]any{"name": "available", "reason": "correction",
		"referenceDocumentUri": "gid://multisell/Channel/" + s.Channel, "quantities": quantities}
	var a setAnswer
	if err := call(ctx, s, setMutation, map[string]any{"input": input, "key": idempotencyKey(nonce, input)}, mutationCost, &a); err != nil {
		return nil, err
	}
	if a.Set == nil {
		return nil, &AnswerError{Status: 200, Message: "inventorySetQuantities: no payload"}
	}
	var stale []*pending
	failed := map[int]string{}
	for _, e := range a.Set.UserErrors {
		i, ok := e.index(len(open))
		switch {
		case !ok:
			// An error of the whole input: every push fails with it.
			for _, p := range open {
				p.result = &connectors.QuantityResult{ChannelSKU: p.push.ChannelSKU, ListingRef: p.item, Error: "shopify: " + e.Message}
			}
			return nil, nil
		case e.Code == "CHANGE_FROM_QUANTITY_STALE" || (e.Code == "INVALID_INVENTORY_ITEM" && !open[i].looked):
			stale = append(stale, open[i])
		default:
			failed[i] = "shopify: " + e.Message
		}
	}
	if len(a.Set.UserErrors) == 0 {
		for _, p := range open {
			p.result = &connectors.QuantityResult{ChannelSKU: p.push.ChannelSKU, OK: true, ChannelQuantity: p.push.Quantity, ListingRef: p.item}
		}
		return nil, nil
	}
	for i, msg := range failed {
		open[i].result = &connectors.QuantityResult{ChannelSKU: open[i].push.ChannelSKU, ListingRef: open[i].item, Error: msg}
	}
	return stale, nil
}

// setAnswer is setMutation's data.
type setAnswer struct {
	Set *struct {
		UserErrors []userError `json:"userErrors"`
	} `json:"inventorySetQuantities"`
}

// userError is a mutation's error of its input.
type userError struct {
	Code    string   `json:"code"`
	Field   []string `json:"field"`
	Message string   `json:"message"`
}

// index is the quantity (of n) a userError's field names ("input", "quantities", "3", ...).
func (e userError) index(n int) (int, bool) {
	if len(e.Field) < 3 || e.Field[0] != "input" || e.Field[1] != "quantities" {
		return 0, false
	}
	i, err := strconv.Atoi(e.Field[2])
	return i, err == nil && i >= 0 && i < n
}

// idempotencyKey is the key of one mutation: a digest of the API version and its input (the
// channel, each item with its quantity and compare quantity), and a nonce of the push, so
// the same request sent again (after a THROTTLED answer) has the same key, while a later
// push of the same change, which Shopify must apply again, has its own. Replays across
// pushes are safe without the key: a quantity is set, never added, and the compare quantity
// holds (docs/connectors.md).
func idempotencyKey(nonce string, input map[string]any) string {
	b, _ := json.Marshal(input)
	sum := sha256.Sum256(append([]byte(Version+"\x00"+nonce+"\x00"), b...))
	return hex.EncodeToString(sum[:])
}
