package push

import (
	"errors"

	"github.com/multisell/multisell/pkg/errs"
)

// Statuses of a push (an item's sync_status).
const (
	// Pending: the version was sent, not confirmed yet.
	Pending = "pending"
	// Synced: the channel confirmed the version.
	Synced = "synced"
	// Failed: the connector reported an error; the push is retried.
	Failed = "failed"
	// Off: nothing is pushed (the rules say no sync, or the channel is
	// not active).
	Off = "off"
)

// ErrStale is a result or retry of a version that was replaced, confirmed
// or never pushed: it changes nothing (the inbox logs it, and does not
// reject the message).
var ErrStale = errors.New("stale: the push has moved on")

// State is the push state of one item.
type State struct {
	// Status is Pending, Synced or Failed while the item is pushed; Off,
	// or a status of the domain's own (a listing's unlinked), when not.
	Status string
	// Error is the connector's reason of the last failure (nil unless
	// Failed).
	Error *string
	// Version counts the changes of what is pushed; every message carries
	// the version it sends. 0: nothing decided yet. An item whose pushed
	// content never changes (a shipment's tracking) is at version 1.
	Version int64
	// Attempts counts the failed results of the current version.
	Attempts int64
	// Push counts the sends of the current version after the first (the
	// retries of a failed push).
	Push int64
}

// Result is a connector's answer for the push of a version.
type Result struct {
	Version int64
	OK      bool
	// Error is why the channel refused it (nil or empty: no reason given).
	Error *string
}

// Retry is what a delayed retry message names: the version to send again
// and the failed attempt it follows.
type Retry struct {
	Version, Attempt int64
}

// Item is what carries a push state: a domain's stored item (a listing, a
// shipment), or a State itself. The transitions read its state, decide,
// and set the new one.
type Item interface {
	PushState() State
	SetPushState(State)
}

// PushState returns s: a State is an Item of its own.
func (s *State) PushState() State { return *s }

// SetPushState replaces s with st.
func (s *State) SetPushState(st State) { *s = st }

// Active reports whether status is one of an item being pushed: Pending,
// Synced or Failed.
func Active(status string) bool {
	return status == Pending || status == Synced || status == Failed
}

// Next moves it to a new version with status (Pending to push it, Off or
// a domain's status not to): the attempts, sends and error of the old one
// are forgotten, so a late result or retry of it is stale.
func Next(it Item, status string) {
	it.SetPushState(State{Status: status, Version: it.PushState().Version + 1})
}

// Confirm applies a connector's result to it: ok makes the push Synced
// (and forgets its failures), an error makes it Failed with the
// connector's reason (refused when it gave none) and counts an attempt. A
// result for a version never sent is invalid; one for an older version,
// for an item not being pushed, or a failure of a version already synced
// is ErrStale. A success for a synced version applies again: the connector
// may report more with it (a listing's channel quantity).
func Confirm(it Item, res Result, refused string) error {
	s := it.PushState()
	switch {
	case res.Version > s.Version:
		return errs.Invalid("version %d was never sent (the latest is %d)", res.Version, s.Version)
	case res.Version < s.Version, !Active(s.Status), s.Status == Synced && !res.OK:
		return ErrStale
	case res.OK:
		s.Status, s.Error, s.Attempts = Synced, nil, 0
	default:
		msg := refused
		if res.Error != nil && *res.Error != "" {
			msg = *res.Error
		}
		s.Status, s.Error = Failed, &msg
		s.Attempts++
	}
	it.SetPushState(s)
	return nil
}

// Resend counts one more send of it when the retry r comes: ErrStale
// unless it is still at that version, failed, with no failure since the
// one the retry follows.
func Resend(it Item, r Retry) error {
	s := it.PushState()
	if s.Version != r.Version || s.Status != Failed || s.Attempts != r.Attempt {
		return ErrStale
	}
	s.Push++
	it.SetPushState(s)
	return nil
}

// Due is what a write of an item, from old to cur, asks of the stream
// (old is the zero State for a new item): send, when a version is to be
// pushed (a new one, or the retry of a failed one: the version or the
// send count moved, and the item is Pending or Failed); retry, when the
// version's push just failed (schedule the next attempt, after Backoff).
func Due(old, cur State) (send, retry bool) {
	moved := old.Version != cur.Version || old.Push != cur.Push
	send = moved && cur.Version > 0 && (cur.Status == Pending || cur.Status == Failed)
	retry = cur.Status == Failed && old.Version == cur.Version && (old.Status != Failed || old.Attempts != cur.Attempts)
	return send, retry
}
