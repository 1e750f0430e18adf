package testenv

import (
	"cmp"
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/multisell/multisell/pkg/accounts"
)

// AccountOptions configures NewAccount; zero limits mean limits so high that functional
// tests are never throttled.
type AccountOptions struct {
	Name string
	RPS  int
	RPM  int
}

// Unthrottled is the default per-second and per-minute limit of test accounts.
const Unthrottled = 1_000_000

// Account is a created account with its credentials.
type Account struct {
	ID     string
	Token  string
	Secret string
}

var accountSeq atomic.Int64

// NewAccount creates an account in the shared stack.
func (e *Env) NewAccount(t testing.TB, opts AccountOptions) Account {
	t.Helper()
	in := accounts.Input{
		Name: cmp.Or(opts.Name, fmt.Sprintf("%s #%d", t.Name(), accountSeq.Add(1))),
		RPS:  cmp.Or(opts.RPS, Unthrottled),
		RPM:  cmp.Or(opts.RPM, Unthrottled),
	}
	created, err := e.Deps.Accounts().Create(context.Background(), in)
	if err != nil {
		t.Fatalf("testenv: create account: %v", err)
	}
	return Account{ID: created.AccountID, Token: created.AccountToken, Secret: created.SecretKey}
}
