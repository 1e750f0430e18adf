package listings

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/paging"
)

// Handlers serves the listing endpoints and the channel-sync function over
// the Service.
type Handlers struct{ Service }

// List serves GET /listings: filters channel_uuid, sku (the inventory
// SKU) and sync_status; a page in (channel, channel SKU) order.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.List(ctx, r, func(r *api.Request) (Filter, error) {
		return ParseFilter(r.Query("channel_uuid"), r.Query("sku"), r.Query("sync_status"))
	}, func(ctx context.Context, f Filter, p paging.Page) (paging.Listing[Listing], error) {
		return h.Service.List(ctx, r.Account.ID, f, p)
	})
}

// Put serves PUT /listings, {"listing":{...}}: creates or updates one
// listing and answers it.
func (h Handlers) Put(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	in, err := ParseListing(body)
	if err != nil {
		return nil, err
	}
	l, err := h.Service.Put(ctx, r.Account.ID, in)
	if err != nil {
		return nil, err
	}
	return api.OK(l), nil
}

// Delete serves DELETE /listings?channel_uuid=U&channel_sku=S.
func (h Handlers) Delete(ctx context.Context, r *api.Request) (*api.Response, error) {
	if err := h.Service.Delete(ctx, r.Account.ID, r.Query("channel_uuid"), r.Query("channel_sku")); err != nil {
		return nil, err
	}
	return api.Message("Listing deleted"), nil
}
