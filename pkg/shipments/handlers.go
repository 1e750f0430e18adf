package shipments

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
)

// Handlers serves POST /shipments over the Service.
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
