package catalog

import (
	"context"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/sku"
)

// Messages of the catalog's 404s.
const (
	NotFoundMessage      = "Product not found"
	GroupNotFoundMessage = "Variation group not found"
)

// Handlers serves the product and variation group endpoints over the
// Service.
type Handlers struct{ Service }

// List serves GET /products: a page in SKU order, filtered by skus (every
// array form) and min_/max_modified_at; Total-Pages when filtered.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	page, err := api.ParsePage(r)
	if err != nil {
		return nil, err
	}
	skus, err := skuFilter(r)
	if err != nil {
		return nil, err
	}
	modified, err := api.ParseTimeRange(r, []string{"min_modified_at", "modified_at_min"},
		[]string{"max_modified_at", "modified_at_max"})
	if err != nil {
		return nil, err
	}
	l, err := listProducts(ctx, h.Table, r.Account.ID, filter{skus: skus, modified: modified}, page)
	if err != nil {
		return nil, err
	}
	return listResponse(l, page), nil
}

// Get serves GET /products/{sku}: one read, plus one BatchGetItem for a
// group's children.
func (h Handlers) Get(ctx context.Context, r *api.Request) (*api.Response, error) {
	sku, err := pathSKU(r)
	if err != nil {
		return nil, err
	}
	rec, err := getRecord(ctx, h.Table, r.Account.ID, sku)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, errs.NotFound(NotFoundMessage)
	}
	if rec.isGroup() {
		p, err := loadGroup(ctx, h.Table, r.Account.ID, rec)
		return api.OK(p), err
	}
	return api.OK(rec.product()), nil
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
	in, err := parseProduct(body)
	if err != nil {
		return nil, err
	}
	p, err := upsert(ctx, h.Table, r.Account.ID, sku, in)
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
	found, err := deleteProduct(ctx, h.Table, r.Account.ID, sku)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errs.NotFound(NotFoundMessage)
	}
	return api.Message("Product deleted"), nil
}

// ListGroups serves GET /variation_groups: a page in SKU order, filtered
// by skus; Total-Pages when filtered.
func (h Handlers) ListGroups(ctx context.Context, r *api.Request) (*api.Response, error) {
	page, err := api.ParsePage(r)
	if err != nil {
		return nil, err
	}
	skus, err := skuFilter(r)
	if err != nil {
		return nil, err
	}
	l, err := listGroups(ctx, h.Table, r.Account.ID, skus, page)
	if err != nil {
		return nil, err
	}
	return listResponse(l, page), nil
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
	in, err := parseGroup(sku, body)
	if err != nil {
		return nil, err
	}
	g, err := putGroup(ctx, h.Table, r.Account.ID, sku, in)
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
	found, err := deleteGroup(ctx, h.Table, r.Account.ID, sku)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errs.NotFound(GroupNotFoundMessage)
	}
	return api.Message("Variation group deleted"), nil
}

// pathSKU is the {sku} path parameter, decoded once; 422 if it is not a
// valid SKU.
func pathSKU(r *api.Request) (string, error) {
	s := r.PathParam("sku")
	return s, sku.Check("sku", s)
}

// skuFilter reads the skus filter in every array form (sku, sku[], skus,
// skus[]); empty values are ignored, nil means no filter, and an invalid
// SKU is a 422.
func skuFilter(r *api.Request) ([]string, error) {
	var out []string
	for _, s := range r.QueryList("sku", "skus") {
		if s == "" {
			continue
		}
		if err := sku.Check("skus", s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// listResponse is the 200 of a page, with Total-Pages when it is known.
func listResponse[T any](l listing[T], page paging.Page) *api.Response {
	resp := api.OK(l.items)
	if l.total >= 0 {
		resp.WithTotalPages(paging.TotalPages(l.total, page.Limit))
	}
	return resp
}
