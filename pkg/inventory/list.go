package inventory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Filter is a validated GET /inventory query.
type Filter struct {
	// Warehouse, if set, keeps one warehouse's records.
	Warehouse string
	// SKUs, if set, keeps these SKUs' records; sorted, without duplicates.
	SKUs []string
	// Created and Updated are inclusive ranges of created_at and updated_at.
	Created, Updated isotime.Range
}

// NewFilter validates the warehouse_uuid (nil when absent) and the sku
// values of GET /inventory into a Filter without time ranges: a blank
// warehouse, an invalid SKU or more than paging.MaxLimit SKUs is invalid.
func NewFilter(warehouse *string, skus []string) (Filter, error) {
	var f Filter
	if warehouse != nil {
		if f.Warehouse = strings.TrimSpace(*warehouse); f.Warehouse == "" {
			return f, errs.Invalid("warehouse_uuid must not be empty")
		}
	}
	for _, s := range skus {
		if err := sku.Check("sku", s); err != nil {
			return f, err
		}
		f.SKUs = append(f.SKUs, s)
	}
	slices.Sort(f.SKUs)
	f.SKUs = slices.Compact(f.SKUs)
	if len(f.SKUs) > paging.MaxLimit {
		return f, errs.Invalid("sku takes at most %d values", paging.MaxLimit)
	}
	return f, nil
}

// Match reports whether the record passes every filter.
func (f Filter) Match(rec Record) bool {
	if f.Warehouse != "" && rec.Warehouse != f.Warehouse {
		return false
	}
	if f.SKUs != nil {
		if _, ok := slices.BinarySearch(f.SKUs, rec.SKU); !ok {
			return false
		}
	}
	return inRange(f.Created, rec.CreatedAt) && inRange(f.Updated, rec.UpdatedAt)
}

// inRange reports whether the stored time s lies in the range.
func inRange(r isotime.Range, s string) bool {
	if !r.Active() {
		return true
	}
	t, ok := isotime.Parse(s)
	return ok && r.Contains(t)
}

// empty reports whether a range is empty (its min after its max).
func empty(r isotime.Range) bool { return r.Min != nil && r.Max != nil && r.Min.After(*r.Max) }

// Listing is what a listing read: the matching records up to the end of
// the page, and their total when the read reached the end.
type Listing struct {
	Records []Record
	// Total is the number of matching records, or -1 if not known.
	Total int
	// warehouseSeen is whether any record read was in the filter's
	// warehouse, which proves the warehouse exists.
	warehouseSeen bool
}

// List returns the account's records that match f, in (sku, warehouse)
// order, reading no further than the end of page (plus one record to tell
// whether more follow). An unfiltered first page is one Query.
func (s Service) List(ctx context.Context, account string, f Filter, page paging.Page) (Listing, error) {
	t := s.Table
	l := Listing{Total: -1}
	if empty(f.Created) || empty(f.Updated) {
		l.Total = 0
		return l, nil
	}
	need := page.Offset() + page.Limit + 1
	complete := true
	for _, src := range f.sources(t, account) {
		done, err := l.read(ctx, t, f, src, need)
		if err != nil {
			return l, err
		}
		if !done {
			complete = false
			break
		}
	}
	if complete {
		slices.SortFunc(l.Records, func(a, b Record) int {
			return strings.Compare(sortKey(a.SKU, a.Warehouse), sortKey(b.SKU, b.Warehouse))
		})
		l.Total = len(l.Records)
	}
	return l, nil
}

// ListPage returns a page of the account's records as GET /inventory shows
// them, in (sku, warehouse) order with the product fields joined in, and
// the number of matching records when the read reached the end (else -1).
// An unknown filter warehouse is not found.
func (s Service) ListPage(ctx context.Context, account string, f Filter, page paging.Page) ([]Inventory, int, error) {
	l, err := s.List(ctx, account, f, page)
	if err != nil {
		return nil, 0, err
	}
	if f.Warehouse != "" && !l.warehouseSeen {
		if _, err := (warehouses.Service{Table: s.Table}).Get(ctx, account, f.Warehouse); errors.Is(err, warehouses.ErrNotFound) {
			return nil, 0, errs.NotFound(warehouses.NotFoundMessage)
		} else if err != nil {
			return nil, 0, err
		}
	}
	out, err := s.withProducts(ctx, account, paging.Slice(l.Records, page))
	if err != nil {
		return nil, 0, err
	}
	return out, l.Total, nil
}

// withProducts returns the records as the API shows them, with the fields
// of the product of the same SKU where one exists: one BatchGetItem for up
// to 100 SKUs.
func (s Service) withProducts(ctx context.Context, account string, recs []Record) ([]Inventory, error) {
	skus := make([]string, len(recs))
	for i, rec := range recs {
		skus[i] = rec.SKU
	}
	products, err := catalog.Service{Table: s.Table}.Lookup(ctx, account, skus)
	if err != nil {
		return nil, fmt.Errorf("look up products: %w", err)
	}
	out := make([]Inventory, len(recs))
	for i, rec := range recs {
		out[i] = view(rec, products[rec.SKU])
	}
	return out, nil
}
