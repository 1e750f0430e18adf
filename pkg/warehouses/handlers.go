package warehouses

import (
	"context"
	"errors"
	"strings"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// Handlers serves the warehouse endpoints over the Service.
type Handlers struct{ Service }

// List serves GET /warehouses: a page in creation order (their uuids'),
// with Total-Pages, or by cursor.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.ListAll(ctx, r, "warehouses", func(ctx context.Context) ([]Warehouse, error) { return h.Service.List(ctx, r.Account.ID) },
		func(w Warehouse) string { return w.UUID })
}

// Create serves POST /warehouses.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	in, err := read(r, true)
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
	in, err := read(r, false)
	if err != nil {
		return nil, err
	}
	if err := h.Service.Update(ctx, r.Account.ID, r.PathParam("uuid"), in); err != nil {
		return nil, err
	}
	return api.Message("Warehouse updated"), nil
}

// read decodes and validates a POST or PUT body (parseBody). The body's own
// 422, a repeated key, is restated in the per-field shape of the warehouse
// validation, the key named as inside the warehouse ({"name": ["is a
// duplicate key"]}).
func read(r *api.Request, create bool) (Input, error) {
	body, err := r.Decode()
	var fe *lenient.FieldError
	switch {
	case errors.As(err, &fe):
		return Input{}, errs.Fields(map[string][]string{strings.TrimPrefix(fe.Field, "warehouse."): {fe.Problem}})
	case err != nil:
		return Input{}, err
	}
	return parseBody(body, create)
}
