package main

import (
	"context"
	"errors"

	"github.com/multisell/multisell/pkg/accounts"
)

func init() {
	register(command{name: "accounts", summary: "create an account: accounts create --name NAME [--rps N --rpm N]", run: runAccounts})
}

func runAccounts(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: multisell accounts create --name NAME [--rps N --rpm N]")
	}
	fs := newFlagSet("accounts create", "--name NAME [--rps N --rpm N]")
	name := fs.String("name", "", "the account's name (required)")
	rps := fs.Int("rps", accounts.DefaultRPS, "requests allowed per second")
	rpm := fs.Int("rpm", accounts.DefaultRPM, "requests allowed per minute")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *name == "" {
		return errors.New("--name is required")
	}
	if *rps < 1 || *rpm < 1 {
		return errors.New("--rps and --rpm must be at least 1")
	}
	d, err := connect(ctx)
	if err != nil {
		return err
	}
	created, err := accounts.Service{Table: d.Table}.Create(ctx, accounts.Input{Name: *name, RPS: *rps, RPM: *rpm})
	if err != nil {
		return err
	}
	return printJSON(created)
}
