package main

import (
	"cmp"
	"context"
	"errors"
	"os"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/usageplans"
)

const accountsUsage = "usage: multisell accounts create --name NAME [--rps N --rpm N] | rotate-secret --account TOKEN | disable --account TOKEN"

func init() {
	register(command{name: "accounts", summary: "create an account, rotate its secret or disable it: accounts create|rotate-secret|disable", run: runAccounts})
}

func runAccounts(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return errors.New(accountsUsage)
	}
	switch args[0] {
	case "create":
		return createAccount(ctx, args[1:])
	case "rotate-secret":
		return changeAccount(ctx, args, func(s accounts.Service, id string) (any, error) {
			return s.RotateSecret(ctx, id)
		})
	case "disable":
		return changeAccount(ctx, args, func(s accounts.Service, id string) (any, error) {
			return map[string]any{"account_id": id, "disabled": true}, s.Disable(ctx, id)
		})
	}
	return errors.New(accountsUsage)
}

func createAccount(ctx context.Context, args []string) error {
	fs := newFlagSet("accounts create", "--name NAME [--rps N --rpm N]")
	name := fs.String("name", "", "the account's name (required)")
	rps := fs.Int("rps", accounts.DefaultRPS, "requests allowed per second")
	rpm := fs.Int("rpm", accounts.DefaultRPM, "requests allowed per minute")
	if err := fs.Parse(args); err != nil {
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
	svc := d.Accounts()
	if svc.Keys, err = usagePlans(ctx, d.Config); err != nil {
		return err
	}
	created, err := svc.Create(ctx, accounts.Input{Name: *name, RPS: *rps, RPM: *rpm})
	if err != nil {
		return err
	}
	return printJSON(created)
}

// changeAccount runs `accounts VERB --account TOKEN`: change, on the
// account the token names, and prints what it returns.
func changeAccount(ctx context.Context, args []string, change func(accounts.Service, string) (any, error)) error {
	fs, token, err := accountCommand("accounts", args[0], "--account TOKEN", args)
	if err != nil {
		return err
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	d, id, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	out, err := change(d.Accounts(), id)
	if err != nil {
		return err
	}
	return printJSON(out)
}

// usagePlans is where new accounts get their API key: nowhere on the local
// stack (its gateway reads the account's rate), and against AWS on the usage
// plans of the API that API_ID names (the stack's ApiId output), stage v1
// unless API_STAGE says otherwise.
func usagePlans(ctx context.Context, cfg app.Config) (accounts.KeyRegistrar, error) {
	if cfg.DynamoDBEndpoint != "" {
		return nil, nil
	}
	apiID := os.Getenv("API_ID")
	if apiID == "" {
		return nil, errors.New("set API_ID to the stack's ApiId output: against AWS, a new account's API key goes on the usage plan of its rate")
	}
	gw, err := usageplans.NewAWS(ctx, cfg.Region, apiID, cmp.Or(os.Getenv("API_STAGE"), "v1"))
	if err != nil {
		return nil, err
	}
	return usageplans.Registrar{Gateway: gw, Prefix: "multisell-" + apiID}, nil
}
