package orders

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Handlers serves the order endpoints and consumes the order import queue
// (handlers_queue.go) over the Service.
type Handlers struct{ Service }

// List serves GET /orders: a page of the account's orders in (ordered_at,
// sb_order_seq) order, with the filters of docs/orders.md, and
// Total-Pages. Cost: one BatchGetItem of the page's start and count, one
// Query, and for a status filter one BatchGetItem of the orders.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	p, f, err := parseListing(r)
	if err != nil {
		return nil, err
	}
	list, err := h.Service.List(ctx, r.Account.ID, f, p)
	if err != nil {
		return nil, err
	}
	return api.Page(r, list.Items, list.Total, list.Next, p), nil
}

// GetOne serves GET /orders/{sb_order_seq}: one GetItem.
func (h Handlers) GetOne(ctx context.Context, r *api.Request) (*api.Response, error) {
	seq, ok := ParseSeq(r.PathParam("sb_order_seq"))
	if !ok {
		return nil, errs.NotFound(NotFoundMessage)
	}
	o, err := h.Service.Get(ctx, r.Account.ID, seq)
	if err != nil {
		return nil, err
	}
	o.forOutput()
	return api.OK(o), nil
}

// Fulfillments serves GET /warehouses/{uuid}/fulfillments (and
// /warehouses/fulfillments/{uuid}): the open orders allocated at the
// warehouse, with only the items allocated there, each with its
// fulfillment_quantity, and Total-Pages. Cost: one BatchGetItem of the
// page's start and count, one Query and one BatchGetItem of the orders; an
// empty page also reads the warehouse, to tell an unknown one (404).
func (h Handlers) Fulfillments(ctx context.Context, r *api.Request) (*api.Response, error) {
	wh := r.PathParam("uuid")
	if !store.ValidID(wh) {
		return nil, errs.NotFound(warehouses.NotFoundMessage)
	}
	p, f, err := parseListing(r)
	if err != nil {
		return nil, err
	}
	list, err := h.Service.Fulfillments(ctx, r.Account.ID, wh, f, p)
	if err != nil {
		return nil, err
	}
	return api.Page(r, list.Items, list.Total, list.Next, p), nil
}

// parseListing reads the page and the filters of a list request
// (docs/orders.md, "Listings"): page and limit, the status filters, and the
// ordered_at range under either of its names.
func parseListing(r *api.Request) (paging.Page, Filter, error) {
	var f Filter
	p, err := api.ParsePage(r)
	if err != nil {
		return p, f, err
	}
	for _, q := range []struct {
		name string
		dst  *string
	}{{"sb_status", &f.Status}, {"sb_payment_status", &f.PaymentStatus}, {"shipment_status", &f.ShipmentStatus}} {
		if !r.HasQuery(q.name) {
			continue
		}
		if *q.dst, err = filterValue(q.name, r.Query(q.name)); err != nil {
			return p, f, err
		}
	}
	if f.OrderedAt, err = api.ParseTimeRange(r, []string{"min_ordered_at", "ordered_at_min"}, []string{"max_ordered_at", "ordered_at_max"}); err != nil {
		return p, f, err
	}
	f.UpdatedAt, err = api.ParseTimeRange(r, []string{"updated_at_min", "min_updated_at"}, []string{"updated_at_max", "max_updated_at"})
	return p, f, err
}
