package paging

import (
	"slices"
	"strings"
)

// SliceAfter is the page p of items, a list read whole (of account, named
// with its filters by list) in the order of key, ascending byte order with
// no two items on one key. By number it is the items from p.Offset(), an
// empty (non-nil) slice past the end; by cursor, the
// Limit items whose key follows the cursor's, so an item that stays in the
// list is neither skipped nor repeated by a walk while others come and go.
// next is the cursor after the page's last item, nil when none follows.
func SliceAfter[T any](items []T, p Page, account, list string, key func(T) string) (page []T, next *Cursor, err error) {
	start := p.Offset()
	if p.ByCursor() {
		pos, err := p.After.Position(account, list)
		if err != nil {
			return nil, nil, err
		}
		start = 0
		if pos != nil {
			start, _ = slices.BinarySearchFunc(items, string(pos), func(it T, k string) int { return strings.Compare(key(it), k) })
			if start < len(items) && key(items[start]) == string(pos) {
				start++
			}
		}
	}
	if start >= len(items) || start < 0 {
		return []T{}, nil, nil
	}
	end := min(start+p.Limit, len(items))
	if end < len(items) {
		next = NewCursor(account, list, []byte(key(items[end-1])))
	}
	return items[start:end], next, nil
}
