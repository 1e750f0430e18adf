package main

import (
	"context"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/demo"
)

// The demo account of `make run`: created with the default rate limits and
// filled with demo.DemoSizes of every kind of data on the stack's first start.
func init() {
	onFirstStart = func(ctx context.Context, d *app.Deps) (demoCredentials, error) {
		created, err := d.Accounts().Create(ctx, accounts.Input{Name: "Demo Merchant"})
		if err != nil {
			return demoCredentials{}, err
		}
		if err := demo.Seed(ctx, d, created.AccountID, demo.DemoSizes, nil); err != nil {
			return demoCredentials{}, err
		}
		return demoCredentials(created), nil
	}
}
