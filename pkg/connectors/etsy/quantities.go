package etsy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"

	"github.com/multisell/multisell/pkg/connectors"
)

// writeAttempts bounds the reads of a listing's inventory that found it changed since the
// read before, in one push.
const writeAttempts = 3

// PushQuantities implements connectors.Connector. Each SKU's listing is its listing_ref (the
// listing id), else found once among the shop's listings (findListings) and answered as the
// listing's ListingRef. The pushes are grouped by listing: each listing's inventory is read,
// the quantity of each offering of our SKUs' products set, and the whole inventory written
// back in one updateListingInventory (every product with its property values, offerings and
// prices, or Etsy drops what is missing). A listing that fails fails only its own SKUs.
func (c *connector) PushQuantities(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	var out []connectors.QuantityResult
	listings := map[int64][]connectors.QuantityPush{}
	var order []int64 // the listings in the order of their first push
	add := func(id int64, p connectors.QuantityPush) {
		if len(listings[id]) == 0 {
			order = append(order, id)
		}
		listings[id] = append(listings[id], p)
	}
	inventories := map[int64]*ListingInventory{}
	refs := map[string]string{}
	var lookup []string
	for _, p := range batch {
		if id, err := strconv.ParseInt(p.ListingRef, 10, 64); err == nil && id > 0 {
			add(id, p)
			continue
		}
		lookup = append(lookup, p.ChannelSKU)
	}
	if len(lookup) > 0 {
		got, err := findListings(ctx, s, lookup)
		if err != nil {
			return nil, err
		}
		for _, p := range batch {
			f, ok := got[p.ChannelSKU]
			switch {
			case !slices.Contains(lookup, p.ChannelSKU):
			case !ok:
				out = append(out, failed(p.ChannelSKU, "no active or sold-out listing of the shop has a product with this SKU"))
			default:
				add(f.listing, p)
				inventories[f.listing], refs[p.ChannelSKU] = f.inventory, strconv.FormatInt(f.listing, 10)
			}
		}
	}
	for _, id := range order {
		res, err := setListing(ctx, s, id, listings[id], inventories[id])
		if err != nil {
			return nil, err
		}
		for i := range res {
			res[i].ListingRef = refs[res[i].ChannelSKU]
		}
		out = append(out, res...)
	}
	return out, nil
}

// failed is a failed result of sku with Etsy's or the connector's message.
func failed(sku, msg string) connectors.QuantityResult {
	return connectors.QuantityResult{ChannelSKU: sku, Error: "Etsy: " + msg}
}

// setListing sets the quantities of pushes on one listing: its inventory (inv, when the
// lookup read it, else getListingInventory), changed in our SKUs' offerings only, read again
// just before the write and compared, and written whole. Etsy has no conditional write: a
// read that differs from the one the change was built on (the seller or another app changed
// the listing meanwhile) builds the change again on the newer one, up to writeAttempts reads,
// so what was changed meanwhile is written back as it now is, not as it was. An error of
// Etsy's fails the listing's SKUs; a refusal, a limit or an unreachable Etsy is the push's
// error.
func setListing(ctx context.Context, s *connectors.Session, listing int64, pushes []connectors.QuantityPush, inv *ListingInventory) ([]connectors.QuantityResult, error) {
	fail := func(msg string) []connectors.QuantityResult {
		out := make([]connectors.QuantityResult, len(pushes))
		for i, p := range pushes {
			out[i] = failed(p.ChannelSKU, msg)
		}
		return out
	}
	var err error
	if inv == nil {
		if inv, err = readInventory(ctx, s, listing); err != nil {
			return etsyFailure(err, fail)
		}
	}
	for range writeAttempts {
		upd, bad, err := change(inv, pushes)
		if err != nil {
			return fail(fmt.Sprintf("listing %d: %v", listing, err)), nil
		}
		if len(bad) == len(pushes) {
			return results(pushes, bad, nil), nil
		}
		now, err := readInventory(ctx, s, listing)
		if err != nil {
			return etsyFailure(err, fail)
		}
		if !reflect.DeepEqual(now, inv) {
			inv = now
			continue
		}
		resp, err := call(ctx, s, http.MethodPut, inventoryPath(listing), upd)
		if err != nil {
			return etsyFailure(err, fail)
		}
		var after ListingInventory
		if err := connectors.DecodeAnswer("etsy", "updateListingInventory", resp.Body, &after); err != nil {
			return nil, err
		}
		return results(pushes, bad, &after), nil
	}
	return fail(fmt.Sprintf("listing %d kept changing while its inventory was written; tried again later", listing)), nil
}

// etsyFailure answers an error of Etsy's (an *apiError) as the listing's failed results
// (fail), and returns any other error as the push's.
func etsyFailure(err error, fail func(string) []connectors.QuantityResult) ([]connectors.QuantityResult, error) {
	var ae *apiError
	if errors.As(err, &ae) {
		return fail(ae.Error()), nil
	}
	return nil, err
}

// change is the whole inventory inv with the offerings of the pushes' products set to their
// quantities, and the message of each push that cannot be set (its SKU on no product of the
// listing; a listing with several products whose quantity does not vary by property, where
// one quantity would set them all). An error (a price that cannot be written exactly) fails
// the listing: writing it would change it.
func change(inv *ListingInventory, pushes []connectors.QuantityPush) (InventoryUpdate, map[string]string, error) {
	want := map[string]int64{}
	for _, p := range pushes {
		want[p.ChannelSKU] = p.Quantity
	}
	bad := map[string]string{}
	upd := InventoryUpdate{PriceOnProperty: orEmpty(inv.PriceOnProperty), QuantityOnProperty: orEmpty(inv.QuantityOnProperty),
		SKUOnProperty: orEmpty(inv.SKUOnProperty), Products: []ProductUpdate{}}
	shared := len(inv.QuantityOnProperty) == 0 && len(inv.Products) > 1
	on := map[string]bool{}
	for _, p := range inv.Products {
		if p.IsDeleted {
			continue
		}
		q, ours := want[p.SKU]
		ours = ours && !shared
		on[p.SKU] = true
		pu := ProductUpdate{SKU: p.SKU, PropertyValues: []PropertyValueUpdate{}, Offerings: []OfferingUpdate{}}
		for _, v := range p.PropertyValues {
			pv := PropertyValueUpdate{PropertyID: v.PropertyID, ValueIDs: orEmpty(v.ValueIDs), ScaleID: v.ScaleID, Values: v.Values}
			if pv.Values == nil {
				pv.Values = []string{}
			}
			if v.PropertyName != nil {
				pv.PropertyName = *v.PropertyName
			}
			pu.PropertyValues = append(pu.PropertyValues, pv)
		}
		for _, o := range p.Offerings {
			if o.IsDeleted {
				continue
			}
			if o.Price == nil {
				return InventoryUpdate{}, nil, fmt.Errorf("product %d: an offering without its price", p.ProductID)
			}
			price, err := amountOf(o.Price)
			if err != nil {
				return InventoryUpdate{}, nil, fmt.Errorf("product %d: price: %w", p.ProductID, err)
			}
			ou := OfferingUpdate{Price: json.Number(price.String()), Quantity: o.Quantity, IsEnabled: o.IsEnabled}
			if ours {
				ou.Quantity = q
			}
			pu.Offerings = append(pu.Offerings, ou)
		}
		upd.Products = append(upd.Products, pu)
	}
	for _, p := range pushes {
		switch {
		case !on[p.ChannelSKU]:
			bad[p.ChannelSKU] = "the listing has no product with this SKU"
		case shared:
			bad[p.ChannelSKU] = "the listing keeps one quantity for all its products (its quantity does not vary by property): multisell does not set it for one SKU"
		}
	}
	return upd, bad, nil
}

// orEmpty is v, or an empty slice for nil (the body's arrays are never null).
func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// results are the pushes' results: failed as bad says, else as the written inventory after
// shows their products (the first offering's quantity), else failed when Etsy's answer has
// no such product.
func results(pushes []connectors.QuantityPush, bad map[string]string, after *ListingInventory) []connectors.QuantityResult {
	out := make([]connectors.QuantityResult, len(pushes))
	for i, p := range pushes {
		if msg, ok := bad[p.ChannelSKU]; ok {
			out[i] = failed(p.ChannelSKU, msg)
			continue
		}
		out[i] = failed(p.ChannelSKU, "Etsy's answer has no product with this SKU")
		if after == nil {
			continue
		}
		for _, pr := range after.Products {
			if pr.SKU == p.ChannelSKU && !pr.IsDeleted && len(pr.Offerings) > 0 {
				out[i] = connectors.QuantityResult{ChannelSKU: p.ChannelSKU, OK: true, ChannelQuantity: pr.Offerings[0].Quantity}
				break
			}
		}
	}
	return out
}
