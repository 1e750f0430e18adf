package shipments

import (
	"context"
	"strings"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/paging"
)

// Handlers serves the shipment and carrier endpoints over the Service.
type Handlers struct{ Service }

// Create serves POST /shipments (docs/shipments.md): the body is validated
// in the order of its checks, then one read of the order and one
// transaction with every effect (quantities, stock, allocations, statuses,
// the shipment record). Shipping unassigned units without a warehouse_uuid
// also reads the warehouse list.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	req, err := ParseShipment(body)
	if err != nil {
		return nil, err
	}
	if err := h.Service.Create(ctx, r.Account.ID, req); err != nil {
		return nil, err
	}
	return api.OK(map[string]string{"body": "Shipment created", "shipment_id": req.Shipment.ID}), nil
}

// List serves GET /shipments: filters sb_order_seq and sync_status; a page
// of shipments, oldest first.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.List(ctx, r, func(r *api.Request) (Filter, error) {
		return ParseFilter(r.Query("sb_order_seq"), r.Query("sync_status"))
	}, func(ctx context.Context, f Filter, p paging.Page) (paging.Listing[View], error) {
		return h.Service.List(ctx, r.Account.ID, f, p)
	})
}

// Carriers serves GET /carriers: every preferred carrier, its aliases and
// its shipping methods, by name; paginated like every list.
func (h Handlers) Carriers(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.ListAll(ctx, r, "carriers", func(context.Context) ([]carriers.Carrier, error) { return h.Service.Carriers(), nil },
		func(c carriers.Carrier) string { return strings.ToLower(c.Name) })
}
