package main

import (
	"context"
	"strings"

	"github.com/multisell/multisell/pkg/connectors/builtin"
	"github.com/multisell/multisell/pkg/consent"
)

// channelsAuthorizeUse is the arguments of channels authorize.
const channelsAuthorizeUse = "--account TOKEN --type TYPE [--name NAME] [--return-url URL] [--marketplace-id ID] [--shop-domain DOMAIN] [--field NAME=VALUE ...]"

// fieldFlags collects --field NAME=VALUE flags.
type fieldFlags map[string]string

// String implements flag.Value.
func (f fieldFlags) String() string { return "" }

// Set implements flag.Value: NAME=VALUE.
func (f fieldFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return usagef("--field takes NAME=VALUE, not %q", v)
	}
	f[name] = value
	return nil
}

// authorizeChannel creates an authorization (as POST /v1/channels/authorizations does) and
// prints it: its consent_url is the page the merchant opens. On the local stack the apps are
// the sandboxes' (serve writes them in its stack file), so opening it connects the channel
// to its sandbox; without --return-url the callback answers a page saying how it went.
func authorizeChannel(ctx context.Context, args []string) error {
	fs, token := accountCommand("channels", "authorize", channelsAuthorizeUse)
	in := consent.Input{Fields: fieldFlags{}}
	fs.StringVar(&in.Type, "type", "", "the channel type: amazon, ebay, ... (required)")
	fs.StringVar(&in.Name, "name", "", "the channel's name (default: the type's display name)")
	fs.StringVar(&in.ReturnURL, "return-url", "", "where the browser goes afterwards, with channel_uuid or error (default: a page of the stack's)")
	marketplace := fs.String("marketplace-id", "", "the marketplace (Amazon ATVPDKIKX0DER, eBay EBAY_US)")
	shop := fs.String("shop-domain", "", "the shop (Shopify's myshopify.com domain)")
	fs.Var(fieldFlags(in.Fields), "field", "another field of the type's, NAME=VALUE (repeatable)")
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	if in.Type == "" {
		return usagef("--type is required\nusage: multisell channels authorize %s", channelsAuthorizeUse)
	}
	for name, v := range map[string]string{"marketplace_id": *marketplace, "shop_domain": *shop} {
		if v != "" {
			in.Fields[name] = v
		}
	}
	builtin.Register()
	d, account, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	if sf, err := readStackFile(localDir()); err == nil && sf != nil && d.LocalApps != nil && len(sf.ConsentApps) > 0 {
		if err := d.LocalApps.Load(sf.ConsentApps); err != nil {
			return err
		}
	}
	a, err := d.Consent().Authorize(ctx, account, in)
	if err != nil {
		return err
	}
	return printJSON(map[string]consent.Authorization{"authorization": a})
}
