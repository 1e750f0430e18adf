package api

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
)

// ParsePage reads page and limit: defaults 1 and 100, a limit over 100 is
// capped, a value below 1 or not an integer is 422.
func ParsePage(r *Request) (paging.Page, error) {
	p := paging.Page{Number: 1, Limit: paging.DefaultLimit}
	var err error
	if p.Number, err = pageParam(r, "page", 1); err != nil {
		return p, err
	}
	p.Limit, err = ParseLimit(r)
	return p, err
}

// ParseLimit reads limit: 100 by default, a limit over 100 is capped, a
// value below 1 or not an integer is 422.
func ParseLimit(r *Request) (int, error) {
	n, err := pageParam(r, "limit", paging.DefaultLimit)
	return min(n, paging.MaxLimit), err
}

func pageParam(r *Request, name string, def int) (int, error) {
	if !r.HasQuery(name) {
		return def, nil
	}
	v, err := strconv.ParseInt(strings.TrimSpace(r.Query(name)), 10, 64)
	if errors.Is(err, strconv.ErrRange) && v > 0 {
		err = nil // an integer beyond int64 is large, not invalid: capped below
	}
	if err != nil || v < 1 {
		return 0, errs.Invalid("%s must be an integer greater than or equal to 1", name)
	}
	return int(min(v, 1<<31-1)), nil
}

// ListAll answers a list whose whole content one read returns (channels,
// warehouses): it validates the page first, then reads, and answers the
// page with Total-Pages.
func ListAll[T any](ctx context.Context, r *Request, read func(context.Context) ([]T, error)) (*Response, error) {
	page, err := ParsePage(r)
	if err != nil {
		return nil, err
	}
	all, err := read(ctx)
	if err != nil {
		return nil, err
	}
	return Page(paging.Slice(all, page), len(all), page), nil
}

// Page is the 200 of one page of a list: body, with Total-Pages when the
// list's size, total, is known (not negative).
func Page(body any, total int, page paging.Page) *Response {
	resp := OK(body)
	if total >= 0 {
		resp.WithTotalPages(paging.TotalPages(total, page.Limit))
	}
	return resp
}

// List serves a list read a page at a time: the page parameters, the
// filters (parse reads them from the request), then read; 200 with the
// page's items, and Total-Pages when the list's size is known.
func List[F, T any](ctx context.Context, r *Request, parse func(*Request) (F, error), read func(context.Context, F, paging.Page) (paging.Listing[T], error)) (*Response, error) {
	page, err := ParsePage(r)
	if err != nil {
		return nil, err
	}
	f, err := parse(r)
	if err != nil {
		return nil, err
	}
	l, err := read(ctx, f, page)
	if err != nil {
		return nil, err
	}
	return Page(l.Items, l.Total, page), nil
}
