package channels

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/store"
)

// Service serves the channel endpoints.
type Service struct{ Table store.Table }

// List serves GET /channels: a page of the account's channels in creation
// order, with Total-Pages.
func (s Service) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.ListAll(ctx, r, func(ctx context.Context) ([]Channel, error) { return List(ctx, s.Table, r.Account.ID) })
}
