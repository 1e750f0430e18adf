package connectors

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// PollResult is what one poll of a channel did.
type PollResult struct {
	// Busy: another poll holds the channel; this one did nothing.
	Busy bool
	// Orders is the number of orders sent to the inbox, Pages the pages read.
	Orders, Pages int
	// Since is the time the walk the poll read from started (the cursor, Lookback ago for
	// the first, or the since of the walk it went on with); Cursor the channel's cursor
	// after the poll.
	Since, Cursor time.Time
	// Resumed: the poll went on with the walk an earlier one ended part way, from its page
	// token. Partial: this one ended part way too (its position is kept for the next).
	Resumed, Partial bool
	// Refused, when not nil, are the orders the poll refused because their documents name
	// another channel (bind) or the connector could not map them (OrderPage.Refused): the
	// poll went on without them.
	Refused *BadAnswer
	// Notices are the pages' notices (OrderPage.Notices), each reported once.
	Notices []string
}

// pollMargin is how long before its context's deadline a poll stops reading pages, to keep
// its position and end its lease in time.
const pollMargin = 10 * time.Second

// Poll imports the orders the channel changed since its cursor: it takes the channel's poll
// lease (another poll holding it makes this one Busy), reads the pages of orders from the
// cursor (the first poll from Lookback ago; a page token answered twice ending the poll as a
// *BadAnswer), sends each page's orders that name the channel to the inbox (the others, and
// those the connector could not map, are refused, PollResult.Refused), and after the last
// page stores the new cursor (quietCursor: the newest change seen minus the safety Overlap,
// never before the old one, and leaving at most a page of orders to read again).
//
// A poll that ends part way through its pages keeps its position (position: the walk's
// since, the page token it stopped at, the newest change sent) and the next poll goes on
// from that page instead of reading again from the cursor: when the channel's limits stop
// it (*Throttled: a connector whose page's items are throttled part way returns the orders
// it has with a next token that fetches the rest, and *Throttled when it has none), after
// MaxPollPages, near its deadline, or when a send or a page fails after the first. A
// resumed walk whose first page fails otherwise (a page token the channel no longer takes)
// is dropped, and the next poll starts again from the cursor. The inbox's import is
// idempotent, so an order sent twice is imported once. An *AuthError counts toward the
// channel's disconnection (*Disconnected on the third in a row).
func (r *Runtime) Poll(ctx context.Context, ch Channel) (PollResult, error) {
	id := pollID(ch.Account, ch.UUID)
	owner := r.ownerID()
	now := r.now()
	pos, ok, err := r.claimPoll(ctx, id, owner, now.UnixMilli(), now.Add(cmp.Or(r.PollLease, DefaultPollLease)).UnixMilli())
	if err != nil || !ok {
		return PollResult{Busy: !ok && err == nil}, err
	}
	res, next, keep, err := r.poll(ctx, ch, pos)
	var polled time.Time
	if err == nil {
		polled = r.now()
	}
	// End the lease even when the context is spent, so the next poll need not wait for it.
	return res, errors.Join(err, r.endPoll(context.WithoutCancel(ctx), id, owner, next, keep, polled))
}

// poll reads the pages of orders from pos and sends them to the inbox; it returns the
// position to store (keep: store none, leave the stored one).
func (r *Runtime) poll(ctx context.Context, ch Channel, pos position) (res PollResult, next position, keep bool, err error) {
	res = PollResult{Cursor: pos.cursor}
	s, err := r.Session(ctx, ch)
	if err != nil {
		return res, pos, true, err
	}
	w := walk{position: position{cursor: pos.cursor, since: pos.cursor}}
	if pos.walking() {
		w.position, res.Resumed = pos, true
	} else if w.since.IsZero() {
		w.since = r.now().Add(-cmp.Or(r.Lookback, DefaultLookback))
	}
	res.Since = w.since
	q := OrdersQuery{Since: w.since, Page: w.page}
	var (
		pages   pager
		refused []string
	)
	for {
		if !waitable(ctx, r.now().Add(pollMargin)) && res.Pages > 0 {
			res.Partial = true
			return res, w.at(q.Page), false, s.accepted(ctx)
		}
		page, err := s.conn.PollOrders(ctx, s, q)
		if err != nil {
			err = fmt.Errorf("poll the orders of channel %s: %w", ch.UUID, s.Refused(ctx, err))
			return r.stopped(res, w, q.Page, err)
		}
		res.Pages++
		orders, bad := bind(ch.UUID, page.Orders)
		refused = append(refused, page.Refused...)
		refused = append(refused, bad...)
		res.Notices = append(res.Notices, page.Notices...)
		docs := make([]json.RawMessage, 0, len(orders))
		times := make([]time.Time, 0, len(page.Orders))
		for _, o := range page.Orders {
			times = append(times, o.UpdatedAt)
		}
		for _, o := range orders {
			docs = append(docs, o.Document)
		}
		if len(docs) > 0 {
			if err := r.Inbox.SendOrders(ctx, ch.Account, docs); err != nil {
				res.Pages--
				return r.stopped(res, w, q.Page, fmt.Errorf("send the orders of channel %s to the inbox: %w", ch.UUID, err))
			}
			if err := s.acknowledge(ctx, orders); err != nil {
				return r.stopped(res, w, q.Page, fmt.Errorf("acknowledge the orders of channel %s: %w", ch.UUID, s.Refused(ctx, err)))
			}
		}
		w.saw(times, page.Next != "")
		res.Orders += len(docs)
		done, err := pages.next(s, page.Next, res.Pages)
		if err != nil {
			return res, pos, true, err
		}
		if page.Next != "" && done {
			res.Partial = true
			return res, w.at(page.Next), false, s.accepted(ctx)
		}
		if done {
			break
		}
		q.Page = page.Next
	}
	if len(refused) > 0 {
		res.Refused = refusedOrders(s, refused)
	}
	res.Cursor = quietCursor(pos.cursor, w.seen, cmp.Or(r.Overlap, DefaultOverlap), w.newest)
	return res, position{cursor: res.Cursor}, false, s.accepted(ctx)
}

// stopped is the end of a poll whose page (token page) failed with err: a walk that read
// pages already, this poll or an earlier one, keeps its position at that page; a resumed
// walk whose first page failed, but for the channel's limits or a refusal, is dropped (its
// token may be one the channel no longer takes); a first page that failed keeps the
// stored position.
func (r *Runtime) stopped(res PollResult, w walk, page string, err error) (PollResult, position, bool, error) {
	var (
		th *Throttled
		ae *AuthError
	)
	switch {
	case res.Pages > 0:
		res.Partial = true
		return res, w.at(page), false, err
	case res.Resumed && !errors.As(err, &th) && !errors.As(err, &ae):
		return res, position{cursor: w.cursor}, false, err
	}
	return res, position{}, true, err
}

// walk is a poll's progress through its pages: its position and the newest orders seen.
type walk struct {
	position
	newest newest
}

// saw records a page of orders (their update times) and whether a next page followed.
func (w *walk) saw(times []time.Time, more bool) {
	for _, t := range times {
		if t.After(w.seen) {
			w.seen = t
		}
	}
	w.newest.add(times, more)
}

// at is the position of the walk stopped before the page token page ("": the first page).
func (w walk) at(page string) position {
	p := w.position
	if p.page = page; page == "" {
		p.since, p.seen = time.Time{}, time.Time{}
	}
	return p
}
