package main

import (
	"context"
	"log/slog"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/demo"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// demoSizes are the sizes of the demo data (tests make them smaller).
var demoSizes = demo.DemoSizes

// The demo account of `make run`: created with the default rate limits and
// filled with demoSizes of every kind of data on the stack's first start, then
// connected to the generic sandbox when it runs. A channel that cannot connect
// is logged: the account and its data are still the demo's.
func init() {
	onFirstStart = func(ctx context.Context, d *app.Deps, sb *sandbox.Generic) (demoCredentials, error) {
		created, err := d.Accounts().Create(ctx, accounts.Input{Name: "Demo Merchant"})
		if err != nil {
			return demoCredentials{}, err
		}
		if err := demo.Seed(ctx, d, created.AccountID, demoSizes, nil); err != nil {
			return demoCredentials{}, err
		}
		if sb != nil {
			if _, err := demo.ConnectSandbox(ctx, d, created.AccountID, sb); err != nil {
				slog.Error("demo data: the sandbox channel", "error", err.Error())
			}
		}
		return demoCredentials(created), nil
	}
}
