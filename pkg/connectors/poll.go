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
	// Since is the time the poll read from (the cursor, or Lookback ago for the first);
	// Cursor the channel's cursor after the poll.
	Since, Cursor time.Time
	// Refused, when not nil, are the orders the poll refused because their documents name
	// another channel (bind) or the connector could not map them (OrderPage.Refused): the
	// poll went on without them.
	Refused *BadAnswer
	// Notices are the pages' notices (OrderPage.Notices), each reported once.
	Notices []string
}

// Poll imports the orders the channel changed since its cursor: it takes the channel's poll
// lease (another poll holding it makes this one Busy), reads the pages of orders from the
// cursor (the first poll from Lookback ago; at most MaxPollPages, a page token answered
// twice ending the poll as a *BadAnswer), sends each page's orders that name the channel to
// the inbox (the others, and those the connector could not map, are refused,
// PollResult.Refused), and only
// then stores the new cursor: the newest change seen minus the safety Overlap, never before
// the old one. A poll that fails stores nothing, so the next starts from the same cursor; the
// inbox's import is idempotent, so an order sent twice is imported once. An *AuthError
// counts toward the channel's disconnection (*Disconnected on the third in a row).
func (r *Runtime) Poll(ctx context.Context, ch Channel) (PollResult, error) {
	id := pollID(ch.Account, ch.UUID)
	owner := r.ownerID()
	now := r.now()
	cursor, ok, err := r.claimPoll(ctx, id, owner, now.UnixMilli(), now.Add(cmp.Or(r.PollLease, DefaultPollLease)).UnixMilli())
	if err != nil || !ok {
		return PollResult{Busy: !ok && err == nil}, err
	}
	res, err := r.poll(ctx, ch, cursor)
	if err != nil {
		// Keep the cursor; end the lease so the next poll need not wait for it.
		return res, errors.Join(err, r.endPoll(context.WithoutCancel(ctx), id, owner, time.Time{}, time.Time{}))
	}
	return res, r.endPoll(ctx, id, owner, res.Cursor, r.now())
}

// poll reads the pages of orders since cursor and sends them to the inbox; it returns the
// next cursor in the result.
func (r *Runtime) poll(ctx context.Context, ch Channel, cursor time.Time) (PollResult, error) {
	res := PollResult{Cursor: cursor}
	s, err := r.Session(ctx, ch)
	if err != nil {
		return res, err
	}
	since := cursor
	if since.IsZero() {
		since = r.now().Add(-cmp.Or(r.Lookback, DefaultLookback))
	}
	var maxSeen time.Time
	res.Since = since
	q := OrdersQuery{Since: since}
	var (
		pages   pager
		refused []string
	)
	for {
		page, err := s.conn.PollOrders(ctx, s, q)
		if err != nil {
			return res, fmt.Errorf("poll the orders of channel %s: %w", ch.UUID, s.Refused(ctx, err))
		}
		res.Pages++
		orders, bad := bind(ch.UUID, page.Orders)
		refused = append(refused, page.Refused...)
		refused = append(refused, bad...)
		res.Notices = append(res.Notices, page.Notices...)
		docs := make([]json.RawMessage, 0, len(orders))
		for _, o := range orders {
			docs = append(docs, o.Document)
			if o.UpdatedAt.After(maxSeen) {
				maxSeen = o.UpdatedAt
			}
		}
		if len(docs) > 0 {
			if err := r.Inbox.SendOrders(ctx, ch.Account, docs); err != nil {
				return res, fmt.Errorf("send the orders of channel %s to the inbox: %w", ch.UUID, err)
			}
		}
		res.Orders += len(docs)
		if done, err := pages.next(s, page.Next, res.Pages); err != nil {
			return res, err
		} else if done {
			break
		}
		q.Page = page.Next
	}
	if len(refused) > 0 {
		res.Refused = refusedOrders(s, refused)
	}
	res.Cursor = nextCursor(cursor, maxSeen, cmp.Or(r.Overlap, DefaultOverlap))
	return res, s.accepted(ctx)
}
