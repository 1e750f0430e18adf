package catalog

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
)

// Handlers serves the product and variation group endpoints over the
// Service.
type Handlers struct{ Service }

// List serves GET /products: a page in SKU order, filtered by skus (every
// array form) and min_/max_modified_at; Total-Pages on every page.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	page, err := api.ParsePage(r)
	if err != nil {
		return nil, err
	}
	skus, err := parseSKUs(r.QueryList("sku", "skus"))
	if err != nil {
		return nil, err
	}
	modified, err := api.ParseTimeRange(r, []string{"min_modified_at", "modified_at_min"},
		[]string{"max_modified_at", "modified_at_max"})
	if err != nil {
		return nil, err
	}
	l, err := h.Service.List(ctx, r.Account.ID, Filter{SKUs: skus, Modified: modified}, page)
	if err != nil {
		return nil, err
	}
	return api.Page(r, l.Items, l.Total, l.Next, page), nil
}

// Get serves GET /products/{sku}.
func (h Handlers) Get(ctx context.Context, r *api.Request) (*api.Response, error) {
	sku, err := pathSKU(r)
	if err != nil {
		return nil, err
	}
	p, err := h.Service.Get(ctx, r.Account.ID, sku)
	if err != nil {
		return nil, err
	}
	return api.OK(p), nil
}

// Upsert serves POST, PUT and PATCH /products/{sku}, which are the same:
// create the product or change the fields the body has.
func (h Handlers) Upsert(ctx context.Context, r *api.Request) (*api.Response, error) {
	sku, err := pathSKU(r)
	if err != nil {
		return nil, err
	}
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	in, err := ParseProduct(body)
	if err != nil {
		return nil, err
	}
	p, err := h.Service.Upsert(ctx, r.Account.ID, sku, in)
	if err != nil {
		return nil, err
	}
	return api.OK(p), nil
}

// Delete serves DELETE /products/{sku}.
func (h Handlers) Delete(ctx context.Context, r *api.Request) (*api.Response, error) {
	sku, err := pathSKU(r)
	if err != nil {
		return nil, err
	}
	if err := h.Service.Delete(ctx, r.Account.ID, sku); err != nil {
		return nil, err
	}
	return api.Message("Product deleted"), nil
}

// ListGroups serves GET /variation_groups: a page in SKU order, filtered
// by skus; Total-Pages on every page.
func (h Handlers) ListGroups(ctx context.Context, r *api.Request) (*api.Response, error) {
	page, err := api.ParsePage(r)
	if err != nil {
		return nil, err
	}
	skus, err := parseSKUs(r.QueryList("sku", "skus"))
	if err != nil {
		return nil, err
	}
	l, err := h.Service.ListGroups(ctx, r.Account.ID, skus, page)
	if err != nil {
		return nil, err
	}
	return api.Page(r, l.Items, l.Total, l.Next, page), nil
}

// PutGroup serves PUT /variation_groups/{sku}: create or replace.
func (h Handlers) PutGroup(ctx context.Context, r *api.Request) (*api.Response, error) {
	sku, err := pathSKU(r)
	if err != nil {
		return nil, err
	}
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	in, err := ParseGroup(sku, body)
	if err != nil {
		return nil, err
	}
	g, err := h.Service.PutGroup(ctx, r.Account.ID, sku, in)
	if err != nil {
		return nil, err
	}
	return api.OK(g), nil
}

// DeleteGroup serves DELETE /variation_groups/{sku}: the group goes, its
// children stay as stand-alone products.
func (h Handlers) DeleteGroup(ctx context.Context, r *api.Request) (*api.Response, error) {
	sku, err := pathSKU(r)
	if err != nil {
		return nil, err
	}
	if err := h.Service.DeleteGroup(ctx, r.Account.ID, sku); err != nil {
		return nil, err
	}
	return api.Message("Variation group deleted"), nil
}

// pathSKU is the {sku} path parameter, decoded once and checked before the
// body is read, so a bad path is reported first.
func pathSKU(r *api.Request) (string, error) {
	s := r.PathParam("sku")
	return s, checkSKU(s)
}
