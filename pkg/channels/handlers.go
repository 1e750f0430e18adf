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

// Update serves PUT /channels/{uuid}: it replaces the channel's inventory
// rules and answers the channel; 404 for a uuid the account does not have.
func (h Handlers) Update(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	rules, err := ParseUpdate(body)
	if err != nil {
		return nil, err
	}
	c, err := h.Service.SetRules(ctx, r.Account.ID, r.PathParam("uuid"), rules)
	if err != nil {
		return nil, err
	}
	return api.OK(c), nil
}
