package channels

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Service is the channels domain: every operation on an account's channels.
type Service struct{ Table store.Table }

// Create stores a new channel of the account.
func (s Service) Create(ctx context.Context, account string, in Input) (Channel, error) {
	c, err := newChannel(store.NewID(), isotime.Format(time.Now()), in)
	if err != nil {
		return Channel{}, err
	}
	if err := put(ctx, s.Table, account, c); err != nil {
		return Channel{}, err
	}
	return c, nil
}

// Get reads one channel of the account: ErrNotFound for a uuid the account
// does not have (without a read when it is not shaped like one of ours).
func (s Service) Get(ctx context.Context, account, uuid string) (Channel, error) {
	if !store.ValidID(uuid) {
		return Channel{}, ErrNotFound
	}
	return get(ctx, s.Table, account, uuid)
}

// List returns every channel of the account in creation order: one Query.
func (s Service) List(ctx context.Context, account string) ([]Channel, error) {
	return list(ctx, s.Table, account)
}
