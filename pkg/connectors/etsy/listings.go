package etsy

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/multisell/multisell/pkg/connectors"
)

// listingStates are the states of the listings a SKU is looked for in: a sold-out listing
// comes back with the quantity pushed to it.
var listingStates = []string{"active", "sold_out"}

// maxListingPages bounds the pages of one state a lookup reads (10,000 listings).
const maxListingPages = 100

// found is the listing a SKU was found on, with the inventory the lookup read.
type found struct {
	listing   int64
	inventory *ListingInventory
}

// findListings looks the SKUs up among the shop's active and sold-out listings
// (getListingsByShop with includes=Inventory, PageSize a page) until each is found: the
// listing whose inventory has a product of that SKU. A SKU on no such listing is not in the
// answer.
func findListings(ctx context.Context, s *connectors.Session, skus []string) (map[string]found, error) {
	out := map[string]found{}
	for _, state := range listingStates {
		for page := 0; page < maxListingPages && len(out) < len(skus); page++ {
			v := url.Values{"state": {state}, "includes": {"Inventory"}, "limit": {strconv.Itoa(PageSize)},
				"offset": {strconv.Itoa(page * PageSize)}}
			resp, err := call(ctx, s, http.MethodGet, shopPath(s)+"/listings?"+v.Encode(), nil)
			if err != nil {
				return nil, err
			}
			var got ShopListings
			if err := connectors.DecodeAnswer("etsy", "getListingsByShop", resp.Body, &got); err != nil {
				return nil, err
			}
			for _, l := range got.Results {
				matchListing(out, skus, l)
			}
			if len(got.Results) < PageSize {
				break
			}
		}
	}
	return out, nil
}

// matchListing records in out each of skus that a product of listing l has.
func matchListing(out map[string]found, skus []string, l ShopListing) {
	if l.Inventory == nil || l.ListingID <= 0 {
		return
	}
	for _, p := range l.Inventory.Products {
		for _, sku := range skus {
			if _, done := out[sku]; !done && !p.IsDeleted && p.SKU == sku {
				out[sku] = found{listing: l.ListingID, inventory: l.Inventory}
			}
		}
	}
}

// inventoryPath is the path of a listing's inventory.
func inventoryPath(listing int64) string {
	return "/v3/application/listings/" + strconv.FormatInt(listing, 10) + "/inventory"
}

// readInventory is a listing's inventory (getListingInventory).
func readInventory(ctx context.Context, s *connectors.Session, listing int64) (*ListingInventory, error) {
	resp, err := call(ctx, s, http.MethodGet, inventoryPath(listing), nil)
	if err != nil {
		return nil, err
	}
	var inv ListingInventory
	if err := connectors.DecodeAnswer("etsy", "getListingInventory", resp.Body, &inv); err != nil {
		return nil, err
	}
	if len(inv.Products) == 0 {
		return nil, fmt.Errorf("etsy getListingInventory: listing %d has no products", listing)
	}
	return &inv, nil
}
