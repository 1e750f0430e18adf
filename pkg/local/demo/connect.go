package demo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/paging"
)

// Connect connects the account's channel name, of the connector conn, to a sandbox through
// the channels service's connect path, as POST /v1/channels does: the connector verifies
// creds (sent as a JSON object) against the sandbox at ep before anything is stored.
func Connect(ctx context.Context, d *app.Deps, account, name, conn string, creds map[string]string, ep channels.Endpoints) (channels.Channel, error) {
	raw, err := json.Marshal(creds)
	if err != nil {
		return channels.Channel{}, err
	}
	ch, err := d.Channels().Connect(ctx, account, channels.ConnectInput{Name: name, Type: conn, Credentials: raw, Endpoints: ep})
	if err != nil {
		return channels.Channel{}, fmt.Errorf("connect %s to its sandbox: %w", name, err)
	}
	return ch, nil
}

// ListProducts lists the account's first n simple products on the channel by equal SKU,
// calling add(sku, i) first for each to put the listing in the channel's sandbox (it returns
// the sandbox's reference of the listing, kept as the listing's ref, or "" for none), and
// returns their SKUs.
func ListProducts(ctx context.Context, d *app.Deps, account string, ch channels.Channel, n int, add func(sku string, i int) (ref string)) ([]string, error) {
	svc := d.Listings()
	products, err := svc.Catalog.List(ctx, account, catalog.Filter{}, paging.Page{Number: 1, Limit: paging.MaxLimit})
	if err != nil {
		return nil, err
	}
	var skus []string
	for _, p := range products.Items {
		if len(skus) == n {
			break
		}
		if len(p.Variations) > 0 {
			continue
		}
		in := listings.Input{ChannelUUID: ch.UUID, ChannelSKU: p.SKU}
		if ref := add(p.SKU, len(skus)); ref != "" {
			in.ListingRefSet, in.ListingRef = true, &ref
		}
		if _, err := svc.Put(ctx, account, in); err != nil {
			return nil, fmt.Errorf("listing %s on %s: %w", p.SKU, ch.Name, err)
		}
		skus = append(skus, p.SKU)
	}
	return skus, nil
}
