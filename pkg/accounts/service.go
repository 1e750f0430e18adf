package accounts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/store"
)

// Service holds the accounts: creating one, reading one by id, rotating its
// secret and disabling it.
type Service struct {
	Table store.Table
	// Revoker ends, at once, the authorizations API Gateway still holds in
	// its cache for a secret version that is no longer current. Rotating
	// and disabling need it.
	Revoker Revoker
	// Keys, when set, gives each new account its API key on the usage plan
	// of its rate (AWS only; the local gateway reads the account instead).
	Keys KeyRegistrar
	// Authorizers, when set, is the stage's cache of the authorizer's
	// answers, flushed after a rotation or a disabling: the old secret's
	// next request goes to the authorizer (401) and never reaches the
	// account's usage plan. Revoker covers a cache that was not flushed.
	Authorizers AuthorizerCache
}

// AuthorizerCache is API Gateway's cache of the authorizer's answers for
// one stage (pkg/usageplans flushes it in API Gateway, pkg/local/gateway
// plays it).
type AuthorizerCache interface {
	FlushAuthorizers(ctx context.Context) error
}

// Revoker makes every secret version of an account below version stop
// working on the next request, whatever API Gateway's authorizer cache
// holds (pkg/ratelimit implements it).
type Revoker interface {
	Revoke(ctx context.Context, account string, version int) error
}

// KeyRegistrar creates an account's API key and puts it on the usage plan
// of rps requests per second (pkg/usageplans implements it against API
// Gateway).
type KeyRegistrar interface {
	Register(ctx context.Context, account string, rps int) error
}

// Create stores a new account with a fresh token and a 32-byte random
// secret. With Keys set, the account's API key is registered first: when
// that fails nothing is stored, and a key whose account could not be stored
// names no account.
func (s Service) Create(ctx context.Context, in Input) (Created, error) {
	if in.Name == "" {
		return Created{}, errors.New("account name is required")
	}
	if in.RPS < 0 || in.RPM < 0 {
		return Created{}, errors.New("rate limits must be positive")
	}
	token, err := randomText(18)
	if err != nil {
		return Created{}, err
	}
	secret, err := randomText(32)
	if err != nil {
		return Created{}, err
	}
	a := Account{
		ID: IDForToken(token), Name: in.Name, Token: token, SecretHash: HashSecret(secret),
		RPS: cmp(in.RPS, DefaultRPS), RPM: cmp(in.RPM, DefaultRPM),
		CreatedAt: time.Now().UTC().Format(time.RFC3339),
	}
	if s.Keys != nil {
		if err := s.Keys.Register(ctx, a.ID, a.RPS); err != nil {
			return Created{}, fmt.Errorf("API key of %s: %w", a.ID, err)
		}
	}
	if err := put(ctx, s.Table, a); err != nil {
		return Created{}, err
	}
	return Created{AccountID: a.ID, AccountToken: token, SecretKey: secret}, nil
}

// Get reads the account with the given id: errs.NotFound for none.
func (s Service) Get(ctx context.Context, id string) (Account, error) {
	return get(ctx, s.Table, id)
}

// RotateSecret gives the account id a new secret and returns it (shown
// once, stored hashed). The old secret stops working on its next request,
// even where API Gateway still holds an authorization for it.
func (s Service) RotateSecret(ctx context.Context, id string) (Created, error) {
	secret, err := randomText(32)
	if err != nil {
		return Created{}, err
	}
	a, err := s.bump(ctx, id, func(a *Account) { a.SecretHash = HashSecret(secret) })
	if err != nil {
		return Created{}, err
	}
	return Created{AccountID: a.ID, AccountToken: a.Token, SecretKey: secret}, nil
}

// Disable refuses every request of the account id from the next one on
// (401), cached authorizations included. Its data stays.
func (s Service) Disable(ctx context.Context, id string) error {
	_, err := s.bump(ctx, id, func(a *Account) { a.Disabled = true })
	return err
}

// bump applies change to the account id with a new secret version, stored
// on the condition that the version read is still current, then revokes
// the versions before it and flushes the authorizer cache (Authorizers).
func (s Service) bump(ctx context.Context, id string, change func(*Account)) (Account, error) {
	if s.Revoker == nil {
		return Account{}, errors.New("accounts: no Revoker to end cached authorizations")
	}
	a, err := get(ctx, s.Table, id)
	if err != nil {
		return Account{}, err
	}
	read := a.SecretVersion
	change(&a)
	a.SecretVersion = read + 1
	if err := replace(ctx, s.Table, a, read); err != nil {
		return Account{}, err
	}
	if err := s.Revoker.Revoke(ctx, a.ID, a.SecretVersion); err != nil {
		return a, err
	}
	if s.Authorizers != nil {
		if err := s.Authorizers.FlushAuthorizers(ctx); err != nil {
			return a, fmt.Errorf("flush the authorizer cache: %w", err)
		}
	}
	return a, nil
}
