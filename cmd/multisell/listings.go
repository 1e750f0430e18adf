package main

import (
	"context"
	"errors"

	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/paging"
)

// listingsLinkUse and listingsListUse are the arguments of listings link and list.
const (
	listingsLinkUse = "--account TOKEN --channel UUID --sku CHANNEL_SKU --product SKU"
	listingsListUse = "--account TOKEN [--channel UUID --sku SKU --status S]"
)

func init() {
	register(command{name: "listings", summary: "channel listings", subs: []subcommand{
		{name: "link", use: listingsLinkUse, run: linkListing},
		{name: "list", use: listingsListUse, run: listListings},
	}})
}

// linkListing links a channel's SKU to a product of the catalog (as PUT
// /v1/listings does).
func linkListing(ctx context.Context, args []string) error {
	fs, token := accountCommand("listings", "link", listingsLinkUse)
	var channel, channelSKU, product string
	fs.StringVar(&channel, "channel", "", "the channel's uuid (required)")
	fs.StringVar(&channelSKU, "sku", "", "the SKU of the listing on the channel (required)")
	fs.StringVar(&product, "product", "", "the SKU of the product in the catalog (required)")
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	if product == "" {
		return errors.New("listings link: --product is required")
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	in := listings.Input{ChannelUUID: channel, ChannelSKU: channelSKU, LinkSet: true, SKU: &product}
	if err := listings.ParseKey(channel, channelSKU); err != nil {
		return err
	}
	l, err := d.Listings().Put(ctx, account, in)
	if err != nil {
		return err
	}
	return printJSON(l)
}

// listListings prints every listing of the account the filters select (as GET
// /v1/listings does, every page).
func listListings(ctx context.Context, args []string) error {
	fs, token := accountCommand("listings", "list", listingsListUse)
	var channel, sku, status string
	fs.StringVar(&channel, "channel", "", "only this channel's listings")
	fs.StringVar(&sku, "sku", "", "only the listings drawing this inventory SKU")
	fs.StringVar(&status, "status", "", "only listings with this sync_status")
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	f, err := listings.ParseFilter(channel, sku, status)
	if err != nil {
		return err
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	all, err := allPages(func(p paging.Page) (paging.Listing[listings.Listing], error) {
		return d.Listings().List(ctx, account, f, p)
	})
	if err != nil {
		return err
	}
	return printJSON(all)
}

// allPages reads every page of a list, pages of the largest size, until
// one is short; never nil.
func allPages[T any](read func(paging.Page) (paging.Listing[T], error)) ([]T, error) {
	all := []T{}
	for page := 1; ; page++ {
		got, err := read(paging.Page{Number: page, Limit: paging.MaxLimit})
		if err != nil {
			return nil, err
		}
		all = append(all, got.Items...)
		if len(got.Items) < paging.MaxLimit {
			return all, nil
		}
	}
}
