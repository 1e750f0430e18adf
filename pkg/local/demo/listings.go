package demo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/paging"
)

func init() { register(25, "listings", seedListings) }

// listingsPerChannel is how many products each demo channel lists.
const listingsPerChannel = 12

// seedListings lists products on the account's channels, unless it has
// listings already: the first channel by equal SKU, the second under its
// own SKUs linked explicitly and with inventory rules (half the stock, at
// most 10, none at 2 or less), the others by equal SKU, one listing with
// an override of its own. Their quantities follow from the stream as soon
// as stock arrives (the inventory step runs next).
func seedListings(ctx context.Context, e *Env, _ Sizes) error {
	svc := e.Deps.Listings()
	if have, err := svc.List(ctx, e.Account, listings.Filter{}, paging.Page{Number: 1, Limit: 1}); err != nil || len(have.Items) > 0 {
		return err
	}
	chs, err := svc.Channels.List(ctx, e.Account)
	if err != nil {
		return err
	}
	products, err := svc.Catalog.List(ctx, e.Account, catalog.Filter{}, paging.Page{Number: 1, Limit: paging.MaxLimit})
	if err != nil {
		return err
	}
	var skus []string
	for _, p := range products.Items {
		if len(p.Variations) == 0 {
			skus = append(skus, p.SKU)
		}
	}
	for i, ch := range chs {
		if i == 1 {
			rules := channels.Rules{Percent: 50, Max: ptr[int64](10), Safety: ptr[int64](2), Sync: true}
			if _, err := svc.Channels.SetRules(ctx, e.Account, ch.UUID, rules); err != nil {
				return err
			}
		}
		for j := range min(listingsPerChannel, len(skus)) {
			sku := skus[(i*5+j)%len(skus)]
			in := listings.Input{ChannelUUID: ch.UUID, ChannelSKU: sku, ListingRefSet: true, ListingRef: ptr(fmt.Sprintf("%s-%04d", ch.ChannelTypeDisplayName, j+1))}
			if i == 1 {
				in.ChannelSKU, in.LinkSet, in.SKU = "EB-"+sku, true, ptr(sku)
			}
			if i == 2 && j == 0 {
				if in.Rules, err = channels.ParseOverride(lenient.Field{Name: "inventory_rules", Raw: json.RawMessage(`{"max":3}`), Present: true}); err != nil {
					return err
				}
				in.RulesSet = true
			}
			if _, err := svc.Put(ctx, e.Account, in); err != nil {
				return fmt.Errorf("listing %s on %s: %w", in.ChannelSKU, ch.Name, err)
			}
		}
		e.Progress("listings", i+1, len(chs))
	}
	return nil
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
