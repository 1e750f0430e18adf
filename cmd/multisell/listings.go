package main

import (
	"context"

	"github.com/multisell/multisell/pkg/orders"
)

func init() {
	register(command{name: "listings", summary: "link a channel listing to a product: listings link --account TOKEN --channel UUID --sku CHANNEL_SKU --product SKU", run: runListings})
}

// runListings links a channel's SKU to a product of the catalog, so its
// orders draw that product's inventory.
func runListings(ctx context.Context, args []string) error {
	const use = "--account TOKEN --channel UUID --sku CHANNEL_SKU --product SKU"
	fs, token, err := accountCommand("listings", "link", use, args)
	if err != nil {
		return err
	}
	var l orders.Link
	fs.StringVar(&l.ChannelUUID, "channel", "", "the channel's uuid (required)")
	fs.StringVar(&l.ChannelSKU, "sku", "", "the SKU of the listing on the channel (required)")
	fs.StringVar(&l.ProductSKU, "product", "", "the SKU of the product in the catalog (required)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	if err := (orders.Service{Table: d.Table}).LinkListing(ctx, account, l); err != nil {
		return err
	}
	return printJSON(l)
}
