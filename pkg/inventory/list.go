package inventory

import (
	"context"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/sku"
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

// ListPage returns a page of the account's records that match f as GET
// /inventory shows them, in (sku, warehouse) order, and the number of
// matching records (-1 when not known). Unfiltered, by warehouse and by
// created_at it is a page of one Query (store.Table.Page) with exact counts
// (bounded for created_at); by sku or updated_at it reads every match and
// sorts them (listAll). An unknown filter warehouse is not found.
func (s Service) ListPage(ctx context.Context, account string, f Filter, page paging.Page) (paging.Listing[Inventory], error) {
	if empty(f.Created) || empty(f.Updated) {
		return paging.Listing[Inventory]{Items: []Inventory{}}, nil
	}
	var recs []Record
	l := paging.Listing[Inventory]{Total: -1}
	if q, ok := f.pageQuery(account); ok {
		var err error
		if recs, l.Total, l.Next, err = pageOf(ctx, s.Table, q, page); err != nil {
			return l, err
		}
	} else {
		all, err := f.listAll(ctx, s.Table, account)
		if err != nil {
			return l, err
		}
		if recs, l.Next, err = paging.SliceAfter(all, page, account, f.list(), recordKey); err != nil {
			return l, err
		}
		l.Total = len(all)
	}
	if f.Warehouse != "" && len(recs) == 0 {
		if _, err := s.Warehouses.Get(ctx, account, f.Warehouse); err != nil {
			return l, err
		}
	}
	var err error
	l.Items, err = s.withProducts(ctx, account, recs)
	return l, err
}

// list names the list f selects when listAll reads it, for its cursors.
func (f Filter) list() string {
	return paging.ListName("inventory read", f.Warehouse, strings.Join(f.SKUs, "\x00"), f.Created.String(), f.Updated.String())
}

// recordKey is a record's place in the list's (sku, warehouse) order.
func recordKey(r Record) string { return sortKey(r.SKU, r.Warehouse) }
