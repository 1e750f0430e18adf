// Package paging is the page model every list shares: page numbers from 1,
// limit 100 by default and at most, and Total-Pages as ceil(count / limit)
// with an empty list having one empty page (docs/api-conventions.md).
package paging

// DefaultLimit and MaxLimit bound every list: absent limit is 100, a larger
// one is capped at 100.
const (
	DefaultLimit = 100
	MaxLimit     = 100
)

// Page is a validated page request: Number starts at 1, Limit is 1 to
// MaxLimit.
type Page struct {
	Number int
	Limit  int
}

// Offset is the number of records before the page.
func (p Page) Offset() int { return (p.Number - 1) * p.Limit }

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

// Listing is one page of a list and the number of items the whole list
// holds (-1 when it is not known: no Total-Pages then).
type Listing[T any] struct {
	Items []T
	Total int
}
