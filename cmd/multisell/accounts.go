package main

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path"
	"strings"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/usageplans"
)

func init() {
	register(command{name: "accounts", summary: "create an account, rotate its secret or disable it", subs: []subcommand{
		{name: "create", use: "--name NAME [--rps N --rpm N]", run: createAccount},
		{name: "rotate-secret", use: "--account TOKEN", run: func(ctx context.Context, args []string) error {
			return changeAccount(ctx, args, func(s accounts.Service, id string) (any, error) { return s.RotateSecret(ctx, id) })
		}},
		{name: "disable", use: "--account TOKEN", run: func(ctx context.Context, args []string) error {
			return changeAccount(ctx, args, func(s accounts.Service, id string) (any, error) {
				return map[string]any{"account_id": id, "disabled": true}, s.Disable(ctx, id)
			})
		}},
	}})
}

func createAccount(ctx context.Context, args []string) error {
	fs := newFlagSet("accounts create", "--name NAME [--rps N --rpm N]")
	name := fs.String("name", "", "the account's name (required)")
	rps := fs.Int("rps", accounts.DefaultRPS, "requests allowed per second")
	rpm := fs.Int("rpm", accounts.DefaultRPM, "requests allowed per minute")
	if err := parseFlags(fs, args[1:], false); err != nil {
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
	fs, token := accountCommand("accounts", args[0], "--account TOKEN")
	if err := parseFlags(fs, args[1:], false); err != nil {
		return err
	}
	d, id, err := openAccount(ctx, *token)
	if err != nil {
		return err
	}
	svc := d.Accounts()
	if svc.Authorizers, err = authorizerCache(ctx, d.Config); err != nil {
		return err
	}
	out, err := change(svc, id)
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
	gw, err := awsStage(ctx, cfg, "a new account's API key goes on the usage plan of its rate")
	if err != nil {
		return nil, err
	}
	return usageplans.Registrar{Gateway: gw, Prefix: "multisell-" + gw.APIID}, nil
}

// authorizerCache is the authorizer cache a rotation or a disabling flushes: the local
// gateway's, reached through .local/stack.json (none for emulators named through the
// environment: the rate limiter's revocation alone answers the old secret 401 there), and
// against AWS the one of API_ID's stage.
func authorizerCache(ctx context.Context, cfg app.Config) (accounts.AuthorizerCache, error) {
	if cfg.DynamoDBEndpoint == "" {
		return awsStage(ctx, cfg, "a rotation or a disabling flushes its authorizer cache")
	}
	s, err := readStackFile(localDir())
	if err != nil || s == nil || s.DynamoDBEndpoint != cfg.DynamoDBEndpoint || s.APIID == "" {
		return nil, err
	}
	root, stage := path.Split(s.APIURL)
	return usageplans.NewLocal(strings.TrimSuffix(root, "/"), s.APIID, stage), nil
}

// awsStage is the API Gateway stage of the API that API_ID names (the stack's ApiId
// output), v1 unless API_STAGE says otherwise; why says what needs it.
func awsStage(ctx context.Context, cfg app.Config, why string) (usageplans.AWS, error) {
	apiID := os.Getenv("API_ID")
	if apiID == "" {
		return usageplans.AWS{}, errors.New("set API_ID to the stack's ApiId output: against AWS, " + why)
	}
	return usageplans.NewAWS(ctx, cfg.Region, apiID, cmp.Or(os.Getenv("API_STAGE"), "v1"))
}
