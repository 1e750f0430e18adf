package main

import (
	"context"

	"github.com/multisell/multisell/pkg/channels"
)

// channelsCreateUse is the arguments of channels create.
const channelsCreateUse = "--account TOKEN --name NAME --type TYPE [--site-id S --region R --state active|inactive|disconnected]"

func init() {
	register(command{name: "channels", summary: "the account's sales channels", subs: []subcommand{
		{name: "create", use: channelsCreateUse, run: createChannel},
		{name: "authorize", use: channelsAuthorizeUse, run: authorizeChannel},
		{name: "list", use: "--account TOKEN", run: listChannels},
	}})
}

// createChannel creates a channel (as POST /v1/channels does) and prints it.
func createChannel(ctx context.Context, args []string) error {
	fs, token := accountCommand("channels", "create", channelsCreateUse)
	var in channels.Input
	fs.StringVar(&in.Name, "name", "", "the channel's name (required)")
	fs.StringVar(&in.Type, "type", "", `the channel type's display name: "Amazon", "eBay", "Shopify", any text (required)`)
	fs.StringVar(&in.SiteID, "site-id", "", "the marketplace site id")
	fs.StringVar(&in.Region, "region", "", "the site region")
	fs.StringVar(&in.State, "state", channels.StateActive, "active, inactive or disconnected")
	if err := parseFlags(fs, args[1:], false); err != nil {
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

// listChannels prints every channel of the account (as GET /v1/channels does), in creation
// order, with its uuid, its connector and its connection's state: what sandbox order
// --channel takes.
func listChannels(ctx context.Context, args []string) error {
	fs, token := accountCommand("channels", "list", "--account TOKEN")
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	all, err := d.Channels().List(ctx, account)
	if err != nil {
		return err
	}
	return printJSON(all)
}
