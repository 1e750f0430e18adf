package inventory

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/paging"
)

// Handlers serves the inventory endpoints and consumes the adjustments queue
// over the Service.
type Handlers struct{ Service }

// List serves GET /inventory (and /inventories): a page of the account's
// records in (sku, warehouse) order with the product fields joined in, and
// Total-Pages when the read reached the end. An unknown warehouse_uuid is
// 404 Warehouse not found.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	page, err := api.ParsePage(r)
	if err != nil {
		return nil, err
	}
	f, err := parseFilter(r)
	if err != nil {
		return nil, err
	}
	l, err := h.ListPage(ctx, r.Account.ID, f, page)
	if err != nil {
		return nil, err
	}
	return api.Page(r, l.Items, l.Total, l.Next, page), nil
}

// parseFilter reads the filters of GET /inventory: warehouse_uuid, sku
// (sku[], skus, skus[]; at most paging.MaxLimit values), created_at_min|max
// and updated_at_min|max (min_created_at etc. too). A bad value is 422.
func parseFilter(r *api.Request) (Filter, error) {
	var warehouse *string
	if r.HasQuery("warehouse_uuid") {
		w := r.Query("warehouse_uuid")
		warehouse = &w
	}
	f, err := NewFilter(warehouse, r.QueryList("sku", "skus"))
	if err != nil {
		return f, err
	}
	if f.Created, err = api.ParseTimeRange(r, []string{"created_at_min", "min_created_at"},
		[]string{"created_at_max", "max_created_at"}); err != nil {
		return f, err
	}
	f.Updated, err = api.ParseTimeRange(r, []string{"updated_at_min", "min_updated_at"},
		[]string{"updated_at_max", "max_updated_at"})
	return f, err
}

// Create serves POST /inventory: it validates the whole body (422), checks
// the warehouses (404 Warehouse not found), creates every record or none
// (409 if one exists), and answers 201.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	items, err := h.requestItems(ctx, r, methodPost)
	if err != nil {
		return nil, err
	}
	if err := h.Service.Create(ctx, r.Account.ID, items); err != nil {
		return nil, err
	}
	return api.Created(map[string]string{"body": "Inventory created"}), nil
}

// Adjust serves PUT and PATCH /inventory: the whole body is validated (422)
// and the warehouses checked (404) before anything is queued; a PATCH none of
// whose records exists is 404 Inventory not found. The answer carries the
// queued adjustment's request id.
func (h Handlers) Adjust(ctx context.Context, r *api.Request) (*api.Response, error) {
	method := MethodPut
	if r.HTTPMethod == MethodPatch {
		method = MethodPatch
	}
	items, err := h.requestItems(ctx, r, method)
	if err != nil {
		return nil, err
	}
	id, err := h.Enqueue(ctx, r.Account.ID, method, items)
	if err != nil {
		return nil, err
	}
	return api.OK(map[string]string{"body": "Request received", "request_id": id}), nil
}

// GetAdjustment serves GET /inventory/adjustments/{request_id}: an applied
// request with its per-item results, or a recent request of the account
// that is still queued (with no items yet); anything else is 404.
func (h Handlers) GetAdjustment(ctx context.Context, r *api.Request) (*api.Response, error) {
	st, err := h.AdjustmentStatus(ctx, r.Account.ID, r.PathParam("request_id"))
	if err != nil {
		return nil, err
	}
	return api.OK(st), nil
}

// History serves GET /inventory/history (also under /inventories): the
// changes of the record sku and warehouse_uuid name (both required, 422),
// newest first, a page at a time; an unknown warehouse is 404.
func (h Handlers) History(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.List(ctx, r, func(r *api.Request) (SKUWarehouse, error) {
		return NewHistoryFilter(r.Query("sku"), r.Query("warehouse_uuid"))
	}, func(ctx context.Context, rec SKUWarehouse, p paging.Page) (paging.Listing[Change], error) {
		return h.Service.History(ctx, r.Account.ID, rec, p)
	})
}

// requestItems reads the items of a body of method (POST, PUT or PATCH):
// the whole body validated (400, 413, 422) and every warehouse checked
// (404) before anything is written or queued.
func (h Handlers) requestItems(ctx context.Context, r *api.Request, method string) ([]Item, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	items, err := ParseItems(body, method)
	if err != nil {
		return nil, err
	}
	if err := h.checkWarehouses(ctx, r.Account.ID, items); err != nil {
		return nil, err
	}
	return items, nil
}
