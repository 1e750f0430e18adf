package api

import (
	"cmp"
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
)

// ParsePage reads page and limit: defaults 1 and 100, a limit over 100 is
// capped, a value below 1 or not an integer is 422. A cursor parameter
// takes the place of page (both at once are 422): the page after the
// position it names, the list's start when it is empty; a cursor the
// service did not sign as it is is 422.
func ParsePage(r *Request) (paging.Page, error) {
	p := paging.Page{Number: 1, Limit: paging.DefaultLimit}
	var err error
	if r.HasQuery("cursor") {
		if r.HasQuery("page") {
			return p, errs.Invalid(paging.PageAndCursor)
		}
		p.Number = 0
		if p.After, err = paging.ParseCursor(strings.TrimSpace(r.Query("cursor"))); err != nil {
			return p, err
		}
	} else if p.Number, err = pageParam(r, "page", 1); err != nil {
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
// warehouses), named list and in the order of key (paging.SliceAfter): it
// validates the page first, then reads, and answers the page with
// Total-Pages, or by cursor.
func ListAll[T any](ctx context.Context, r *Request, list string, read func(context.Context) ([]T, error), key func(T) string) (*Response, error) {
	page, err := ParsePage(r)
	if err != nil {
		return nil, err
	}
	all, err := read(ctx)
	if err != nil {
		return nil, err
	}
	items, next, err := paging.SliceAfter(all, page, r.Account.ID, list, key)
	if err != nil {
		return nil, err
	}
	return Page(r, items, len(all), next, page), nil
}

// Page is the 200 of one page of a list: body, with Total-Pages when the
// page is asked by number and the list's size, total, is known (not
// negative), and a Link to the next page (RFC 8288, rel="next") by its
// cursor when next is not nil.
func Page(r *Request, body any, total int, next *paging.Cursor, page paging.Page) *Response {
	resp := OK(body)
	if total >= 0 && !page.ByCursor() {
		resp.WithTotalPages(paging.TotalPages(total, page.Limit))
	}
	if next != nil {
		resp.WithHeader("Link", "<"+nextURL(r, next)+`>; rel="next"`)
	}
	return resp
}

// QueryValues is the request's query string: every value of each parameter, as API Gateway gives
// them (its multi-value parameters, else the single ones).
func (r *Request) QueryValues() url.Values {
	q := url.Values{}
	for k, vs := range r.MultiValueQueryStringParameters {
		q[k] = vs
	}
	for k, v := range r.QueryStringParameters {
		if _, ok := q[k]; !ok {
			q[k] = []string{v}
		}
	}
	return q
}

// nextURL is the request's own path (its stage included) and query, with
// the cursor next in place of page and cursor.
func nextURL(r *Request, next *paging.Cursor) string {
	q := r.QueryValues()
	delete(q, "page")
	q.Set("cursor", next.Encode())
	return cmp.Or(r.RequestContext.Path, r.Path) + "?" + q.Encode()
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
	return Page(r, l.Items, l.Total, l.Next, page), nil
}
