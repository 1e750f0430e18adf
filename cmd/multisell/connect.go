package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
)

// connect builds the clients for the running local stack or, without one,
// for AWS.
func connect(ctx context.Context) (*app.Deps, error) {
	cfg, err := loadConfig()
	if err != nil {
		return nil, err
	}
	return app.New(ctx, cfg)
}

// accountByToken returns the id of the account with the given token.
func accountByToken(ctx context.Context, d *app.Deps, token string) (string, error) {
	if token == "" {
		return "", errors.New("--account TOKEN is required")
	}
	a, err := accounts.Get(ctx, d.Table, accounts.IDForToken(token))
	if errors.Is(err, accounts.ErrNotFound) || (err == nil && a.Token != token) {
		return "", fmt.Errorf("no account with token %q", token)
	}
	if err != nil {
		return "", err
	}
	return a.ID, nil
}
