package connectors

import (
	"fmt"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/store"
)

// position is where a channel's polls stand, kept on its poll item between polls:
//
//	cursor  the time the next walk starts from (RFC 3339): the newest change a finished walk
//	        saw, less the overlap (nextCursor, quietCursor)
//	since   the time the walk under way started from, page its next page token, and seen the
//	        newest change it has sent so far (RFC 3339); all three absent between walks
//
// A walk is the reading of every page from one since: one poll reads it whole, or a poll
// ends part way (the channel's limits, MaxPollPages, its deadline) and the next goes on from
// page instead of reading again from the cursor.
type position struct {
	cursor, since, seen time.Time
	page                string
}

// walking reports whether a walk is under way (a poll ended part way through it).
func (p position) walking() bool { return p.page != "" }

// positionOf reads the position of a poll item.
func positionOf(img store.Image) (position, error) {
	var p position
	for _, f := range []struct {
		name string
		to   *time.Time
	}{{"cursor", &p.cursor}, {"since", &p.since}, {"seen", &p.seen}} {
		v := img.Text(f.name)
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return position{}, fmt.Errorf("stored poll %s %q: %w", f.name, v, err)
		}
		*f.to = t
	}
	p.page = img.Text("page")
	return p, nil
}

// write sets the position on the update of a poll item: the cursor when it is set, and the
// walk under way, or none.
func (p position) write(u *store.Update) {
	if !p.cursor.IsZero() {
		u.SetValue("cursor", store.S(p.cursor.UTC().Format(time.RFC3339Nano)))
	}
	if !p.walking() {
		u.Remove = append(u.Remove, "since", "page", "seen")
		return
	}
	u.SetValue("since", store.S(p.since.UTC().Format(time.RFC3339Nano)))
	u.SetValue("page", store.S(p.page))
	if !p.seen.IsZero() {
		u.SetValue("seen", store.S(p.seen.UTC().Format(time.RFC3339Nano)))
	}
}

// newest keeps the update times of the newest orders a walk saw, at most as many as a full
// page holds, so the cursor after the walk can leave at most one page to read again.
type newest struct {
	times []time.Time
	// full is the most orders a page that had a next page held: the channel's page size as
	// it answers (0 until a walk read past a first page).
	full int
}

// add records a page of orders (their update times) and whether a next page followed.
func (n *newest) add(times []time.Time, more bool) {
	if more {
		n.full = max(n.full, len(times))
	}
	n.times = append(n.times, times...)
	slices.SortFunc(n.times, func(a, b time.Time) int { return b.Compare(a) })
	if keep := max(n.full, 1) * 2; len(n.times) > keep {
		n.times = n.times[:keep]
	}
}

// quietCursor is the cursor after a finished walk: nextCursor's (the newest change seen
// less the overlap, never before the stored cursor), but, when more than a page of orders
// changed within the overlap, the second after the full-th newest: the orders at or after
// the cursor then fit in one page, so a poll that finds nothing new reads one page. The
// overlap guards against an order listed late; the page of the newest changes still covers
// most of it, and an order listed late within a busy shop's last page may be missed until
// it changes again (docs/connectors.md).
func quietCursor(stored, maxSeen time.Time, overlap time.Duration, n newest) time.Time {
	c := nextCursor(stored, maxSeen, overlap)
	if n.full == 0 || len(n.times) < n.full {
		return c
	}
	// The second after the full-th newest change: marketplaces stamp changes, and take a
	// since, in whole seconds.
	if bound := n.times[n.full-1].Truncate(time.Second).Add(time.Second); bound.After(c) {
		return bound
	}
	return c
}
