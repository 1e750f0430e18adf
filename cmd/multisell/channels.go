package main

import (
	"context"

	"github.com/multisell/multisell/pkg/channels"
)

func init() {
	register(command{name: "channels", summary: "create a channel: channels create --account TOKEN --name NAME --type TYPE", run: runChannels})
}

func runChannels(ctx context.Context, args []string) error {
	const use = "--account TOKEN --name NAME --type TYPE [--site-id S --region R --state active|inactive|disconnected]"
	fs, token, err := accountCommand("channels", "create", use, args)
	if err != nil {
		return err
	}
	var in channels.Input
	fs.StringVar(&in.Name, "name", "", "the channel's name (required)")
	fs.StringVar(&in.Type, "type", "", `the channel type's display name: "Amazon", "eBay", "Shopify", any text (required)`)
	fs.StringVar(&in.SiteID, "site-id", "", "the marketplace site id")
	fs.StringVar(&in.Region, "region", "", "the site region")
	fs.StringVar(&in.State, "state", channels.StateActive, "active, inactive or disconnected")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	c, err := d.Channels().Create(ctx, account, in)
	if err != nil {
		return err
	}
	return printJSON(c)
}
