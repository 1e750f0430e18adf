package events

import (
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/errs"
)

// Query is a read of the feed: the events after seq After, oldest first,
// at most Limit, only of Type when it is set.
type Query struct {
	After int64
	Limit int
	Type  string
}

// Page is what GET /v1/events returns: the events and where the next read
// starts (the last seq returned, or the query's After when none).
type Page struct {
	Events    []Event `json:"events"`
	NextAfter int64   `json:"next_after"`
}

// ParseQuery validates the after and type parameters (get returns a query
// parameter and whether it was given); Limit is the caller's. after is an
// integer of at least 0 (0 when absent: from the first event); type is one
// event type.
func ParseQuery(get func(name string) (string, bool), limit int) (Query, error) {
	q := Query{Limit: limit}
	if v, ok := get("after"); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 0 {
			return Query{}, errs.Invalid("after must be an integer greater than or equal to 0")
		}
		q.After = n
	}
	if v, ok := get("type"); ok {
		if !KnownType(v) {
			return Query{}, errs.Invalid("type must be one of %s", TypeList())
		}
		q.Type = v
	}
	return q, nil
}
