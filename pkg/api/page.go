package api

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// DefaultLimit and MaxLimit bound every list: absent limit is 100, a larger
// one is capped at 100.
const (
	DefaultLimit = 100
	MaxLimit     = 100
)

// Page is a validated page request: Number starts at 1.
type Page struct {
	Number int
	Limit  int
}

// Offset is the number of records before the page.
func (p Page) Offset() int { return (p.Number - 1) * p.Limit }

// ParsePage reads page and limit: defaults 1 and 100, a limit over 100 is
// capped, a value below 1 or not an integer is 422.
func ParsePage(r *Request) (Page, error) {
	p := Page{Number: 1, Limit: DefaultLimit}
	var err error
	if p.Number, err = pageParam(r, "page", 1); err != nil {
		return p, err
	}
	if p.Limit, err = pageParam(r, "limit", DefaultLimit); err != nil {
		return p, err
	}
	p.Limit = min(p.Limit, MaxLimit)
	return p, nil
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
		return 0, Invalid("%s must be an integer greater than or equal to 1", name)
	}
	return int(min(v, 1<<31-1)), nil
}

// TotalPages is the number of pages of limit records that hold total
// records; an empty list has one (empty) page.
func TotalPages(total, limit int) int {
	if total <= 0 || limit <= 0 {
		return 1
	}
	return (total + limit - 1) / limit
}

// Slice returns the page of items, an empty (non-nil) slice past the end.
func Slice[T any](items []T, p Page) []T {
	start := p.Offset()
	if start >= len(items) || start < 0 {
		return []T{}
	}
	return items[start:min(start+p.Limit, len(items))]
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
	return OK(Slice(all, page)).WithTotalPages(TotalPages(len(all), page.Limit)), nil
}
