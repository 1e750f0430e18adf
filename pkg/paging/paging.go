// Package paging is the page model every list shares: page numbers from 1,
// limit 100 by default and at most, and Total-Pages as ceil(count / limit)
// with an empty list having one empty page; and cursors, the signed
// position a page ends at, which a client sends back instead of a page
// number to read the next page with one Query (docs/api-conventions.md).
package paging

// DefaultLimit and MaxLimit bound every list: absent limit is 100, a larger
// one is capped at 100.
const (
	DefaultLimit = 100
	MaxLimit     = 100
)

// Page is a validated page request: Number starts at 1, Limit is 1 to
// MaxLimit. A request that sends a cursor instead of a page number has
// After set (the zero Cursor for the list's start) and Number 0: the page
// is the Limit items after the cursor's position.
type Page struct {
	Number int
	Limit  int
	After  *Cursor
}

// ByCursor reports whether the page is addressed by a cursor.
func (p Page) ByCursor() bool { return p.After != nil }

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

// Listing is one page of a list, the number of items the whole list
// holds (-1 when it is not known: no Total-Pages then) and the cursor of
// the next page (nil after the last).
type Listing[T any] struct {
	Items []T
	Total int
	Next  *Cursor
}
