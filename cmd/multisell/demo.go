package main

import (
	"context"
	"log/slog"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/demo"
)

// demoSizes are the sizes of the demo data (tests make them smaller).
var demoSizes = demo.DemoSizes

// The demo account of `make run`: created with the default rate limits and
// filled with demoSizes of every kind of data on the stack's first start, then
// given a channel connected to each running sandbox (the generic marketplace,
// Amazon, Shopify, eBay). A channel that cannot connect is logged: the account
// and its data are still the demo's.
func init() {
	onFirstStart = func(ctx context.Context, d *app.Deps, connect []demoConnect) (demoCredentials, error) {
		created, err := d.Accounts().Create(ctx, accounts.Input{Name: "Demo Merchant"})
		if err != nil {
			return demoCredentials{}, err
		}
		if err := demo.Seed(ctx, d, created.AccountID, demoSizes, nil); err != nil {
			return demoCredentials{}, err
		}
		for _, c := range connect {
			if ch, err := c(ctx, d, created.AccountID); err != nil {
				slog.Error("demo data: a sandbox channel", "error", err.Error())
			} else {
				slog.Info("demo data: a channel connected to a sandbox", "channel", ch.Name, "uuid", ch.UUID)
			}
		}
		return demoCredentials(created), nil
	}
}
