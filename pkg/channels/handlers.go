package channels

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
)

// Handlers serves the channel endpoints over the Service.
type Handlers struct{ Service }

// List serves GET /channels: a page of the account's channels in creation
// order, with Total-Pages.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.ListAll(ctx, r, func(ctx context.Context) ([]Channel, error) { return h.Service.List(ctx, r.Account.ID) })
}
