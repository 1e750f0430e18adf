package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/sdkchain"
	"github.com/multisell/multisell/pkg/errs"
)

// connect builds the clients for the running local stack or, without one,
// for AWS.
func connect(ctx context.Context) (*app.Deps, error) {
	cfg, err := loadConfig()
	if err != nil {
		return nil, err
	}
	return sdkchain.New(ctx, cfg)
}

// accountByToken returns the id of the account with the given token.
func accountByToken(ctx context.Context, d *app.Deps, token string) (string, error) {
	if token == "" {
		return "", errors.New("--account TOKEN is required")
	}
	a, err := d.Accounts().Get(ctx, accounts.IDForToken(token))
	if errs.KindOf(err) == errs.KindNotFound || (err == nil && a.Token != token) {
		return "", fmt.Errorf("no account with token %q", token)
	}
	if err != nil {
		return "", err
	}
	return a.ID, nil
}

// accountCommand begins a subcommand shaped `multisell NAME VERB --account
// TOKEN ...`: it checks the verb and returns the verb's flag set, with
// --account defined, and the token flag. Parse args[1:] with it.
func accountCommand(name, verb, use string) (*flag.FlagSet, *string) {
	return accountFlags(name+" "+verb, use)
}

// accountFlags is the flag set of the subcommand name (its words after
// multisell) with --account defined, and the token flag.
func accountFlags(name, use string) (*flag.FlagSet, *string) {
	fs := newFlagSet(name, use)
	return fs, fs.String("account", "", "the account token (required)")
}

// openAccount connects to the stack and resolves the account token to the
// account id.
func openAccount(ctx context.Context, token string) (*app.Deps, string, error) {
	d, err := connect(ctx)
	if err != nil {
		return nil, "", err
	}
	account, err := accountByToken(ctx, d, token)
	return d, account, err
}
