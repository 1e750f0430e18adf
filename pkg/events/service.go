package events

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// accountsAtOnce is how many accounts' events of one stream batch are
// recorded at once (an account's own stay in order).
const accountsAtOnce = 16

// maxPerCommit is the most events one transaction numbers: three writes
// each plus the counter, within a transaction's 100.
const maxPerCommit = (store.MaxWrites - 1) / writesPerEvent

// Service is the event feed.
type Service struct {
	Table store.Table
	// Sources say what event a change of their item kinds is.
	Sources []Source
	// Followers are told of every batch of records (the webhooks).
	Followers []Follower
}

// List returns a page of the account's feed.
func (s Service) List(ctx context.Context, account string, q Query) (Page, error) {
	evs, err := readFeed(ctx, s.Table, account, q)
	if err != nil {
		return Page{}, err
	}
	next := q.After
	if len(evs) > 0 {
		next = evs[len(evs)-1].Seq
	}
	return Page{Events: evs, NextAfter: next}, nil
}

// Get returns the account's event seq; ok is false when there is none
// (never numbered, or past the retention).
func (s Service) Get(ctx context.Context, account string, seq int64) (Event, bool, error) {
	return getEvent(ctx, s.Table, account, seq)
}

// Handle is the events function's work on a batch of stream records: it
// records the events the records mean, each account's at once, and hands
// the batch to the Followers. It returns the sequence number of the
// earliest record whose work failed ("" when none): the batch is retried
// from there, and a replayed record makes no second event.
func (s Service) Handle(ctx context.Context, changes []store.Change) string {
	sources := map[string]Source{}
	for _, src := range s.Sources {
		for _, k := range src.EventKinds() {
			sources[k] = src
		}
	}
	record := func(ctx context.Context, account string, changes []store.Change) error {
		return s.record(ctx, sources, account, changes)
	}
	failed := store.ByAccount(ctx, changes, accountsAtOnce, record, func(account string, err error) {
		logctx.From(ctx).Error("recording events failed", "account_id", account, "error", err.Error())
	})
	for _, f := range s.Followers {
		failed = store.Earliest(changes, failed, f.Follow(ctx, changes))
	}
	return failed
}

// record numbers and stores the events one account's changes mean, in
// their order; sources are the Sources by item kind.
func (s Service) record(ctx context.Context, sources map[string]Source, account string, changes []store.Change) error {
	now := time.Now()
	var evs []stored
	for _, c := range changes {
		src := sources[c.Kind]
		if src == nil {
			continue
		}
		d, ok, err := src.EventOf(ctx, c)
		if err != nil {
			return fmt.Errorf("the event of %s %q: %w", c.Kind, c.SK, err)
		}
		if !ok {
			continue
		}
		data, err := json.Marshal(d.Data)
		if err != nil {
			return fmt.Errorf("the event of %s %q: %w", c.Kind, c.SK, err)
		}
		source := sourceKey(c)
		evs = append(evs, stored{ID: eventID(account, source), Type: d.Type, CreatedAt: isotime.Format(now), Data: string(data), Source: source})
	}
	for len(evs) > 0 {
		n := min(len(evs), maxPerCommit)
		if err := s.commit(ctx, account, evs[:n], now.Unix()); err != nil {
			return err
		}
		evs = evs[n:]
	}
	return nil
}

// commit numbers evs after the account's last seq and stores them in one
// transaction, with store.Retry (at most store.FeedAttempts times): when
// another writer numbered first, it reads the counter again; events whose
// source is marked already (a replayed record) are dropped.
func (s Service) commit(ctx context.Context, account string, evs []stored, now int64) error {
	evs = slices.Clone(evs)
	err := store.Retry(ctx, store.FeedAttempts, store.Raced, func() error {
		prev, err := lastSeq(ctx, s.Table, account)
		if err != nil {
			return err
		}
		for i := range evs {
			evs[i].Seq = prev + int64(i) + 1
		}
		ws, err := eventWrites(account, prev, evs, now)
		if err != nil {
			return err
		}
		err = s.Table.Commit(ctx, ws)
		if err == nil {
			return nil
		}
		moved, recorded := commitOutcome(err)
		if !moved && len(recorded) == 0 && !store.TransactionConflict(err) {
			return err
		}
		for _, i := range slices.Backward(recorded) {
			evs = slices.Delete(evs, i, i+1)
		}
		if len(evs) == 0 {
			return nil
		}
		return fmt.Errorf("the account's feed: %w: %w", store.ErrRaced, err)
	})
	if err != nil {
		return fmt.Errorf("store events: %w", err)
	}
	return nil
}

// Last returns the account's last seq (0 before its first event).
func (s Service) Last(ctx context.Context, account string) (int64, error) {
	return lastSeq(ctx, s.Table, account)
}
