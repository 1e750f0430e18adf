package warehouses

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
)

// Handlers serves the warehouse endpoints over the Service.
type Handlers struct{ Service }

// List serves GET /warehouses: a page in creation order with Total-Pages.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.ListAll(ctx, r, func(ctx context.Context) ([]Warehouse, error) { return h.Service.List(ctx, r.Account.ID) })
}

// Create serves POST /warehouses.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	in, err := parseBody(body, true)
	if err != nil {
		return nil, err
	}
	id, err := h.Service.Create(ctx, r.Account.ID, in)
	if err != nil {
		return nil, err
	}
	return api.OK(map[string]string{"message": "Warehouse created", "warehouse_uuid": id}), nil
}

// Update serves PUT /warehouses/{uuid}: it changes only the fields sent (an
// explicit null clears one); 404 for a uuid the account does not have.
func (h Handlers) Update(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	in, err := parseBody(body, false)
	if err != nil {
		return nil, err
	}
	if err := h.Service.Update(ctx, r.Account.ID, r.PathParam("uuid"), in); err != nil {
		return nil, err
	}
	return api.Message("Warehouse updated"), nil
}
