package accounts

import (
	"context"
	"errors"
	"time"

	"github.com/multisell/multisell/pkg/store"
)

// Service holds the accounts: creating one and reading one by id.
type Service struct{ Table store.Table }

// Create stores a new account with a fresh token and a 32-byte random secret.
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
	if err := put(ctx, s.Table, a); err != nil {
		return Created{}, err
	}
	return Created{AccountID: a.ID, AccountToken: token, SecretKey: secret}, nil
}

// Get reads the account with the given id: ErrNotFound for none.
func (s Service) Get(ctx context.Context, id string) (Account, error) {
	return get(ctx, s.Table, id)
}
