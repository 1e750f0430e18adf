package push

import (
	"errors"
	"reflect"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

func text(s string) *string { return &s }

func TestNext(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		from   State
		status string
		want   State
	}{
		{"first version", State{}, Pending, State{Status: Pending, Version: 1}},
		{"a failed version is replaced", State{Status: Failed, Error: text("down"), Version: 3, Attempts: 2, Push: 2}, Pending, State{Status: Pending, Version: 4}},
		{"turning off is a version too", State{Status: Synced, Version: 2}, Off, State{Status: Off, Version: 3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.from
			Next(&got, tc.status)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestConfirm(t *testing.T) {
	t.Parallel()
	const refused = "the channel refused it"
	cases := []struct {
		name    string
		from    State
		res     Result
		want    State
		wantErr error // nil or ErrStale
		invalid bool  // an invalid result (errs.KindInvalid)
	}{
		{"success", State{Status: Pending, Version: 2}, Result{Version: 2, OK: true}, State{Status: Synced, Version: 2}, nil, false},
		{"success after failures", State{Status: Failed, Error: text("x"), Version: 2, Attempts: 3, Push: 3}, Result{Version: 2, OK: true}, State{Status: Synced, Version: 2, Push: 3}, nil, false},
		{"success again", State{Status: Synced, Version: 2}, Result{Version: 2, OK: true}, State{Status: Synced, Version: 2}, nil, false},
		{"failure with a reason", State{Status: Pending, Version: 1}, Result{Version: 1, Error: text("no such item")}, State{Status: Failed, Error: text("no such item"), Version: 1, Attempts: 1}, nil, false},
		{"failure without a reason", State{Status: Failed, Error: text("x"), Version: 1, Attempts: 1, Push: 1}, Result{Version: 1, Error: text("")}, State{Status: Failed, Error: text(refused), Version: 1, Attempts: 2, Push: 1}, nil, false},
		{"failure of a synced version", State{Status: Synced, Version: 1}, Result{Version: 1}, State{Status: Synced, Version: 1}, ErrStale, false},
		{"older version", State{Status: Pending, Version: 3}, Result{Version: 2, OK: true}, State{Status: Pending, Version: 3}, ErrStale, false},
		{"not pushed", State{Status: Off, Version: 3}, Result{Version: 3, OK: true}, State{Status: Off, Version: 3}, ErrStale, false},
		{"no status", State{Version: 1}, Result{Version: 1}, State{Version: 1}, ErrStale, false},
		{"never sent", State{Status: Pending, Version: 3}, Result{Version: 4, OK: true}, State{Status: Pending, Version: 3}, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.from
			err := Confirm(&got, tc.res, refused)
			switch {
			case tc.invalid:
				if errs.KindOf(err) != errs.KindInvalid {
					t.Errorf("err = %v, want an invalid result", err)
				}
			case !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil):
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestResend(t *testing.T) {
	t.Parallel()
	failed := State{Status: Failed, Error: text("x"), Version: 2, Attempts: 2, Push: 1}
	cases := []struct {
		name      string
		from      State
		retry     Retry
		wantPush  int64
		wantStale bool
	}{
		{"due", failed, Retry{Version: 2, Attempt: 2}, 2, false},
		{"failed again since", failed, Retry{Version: 2, Attempt: 1}, 1, true},
		{"replaced", failed, Retry{Version: 1, Attempt: 2}, 1, true},
		{"confirmed", State{Status: Synced, Version: 2, Push: 1}, Retry{Version: 2, Attempt: 2}, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.from
			err := Resend(&got, tc.retry)
			if gotStale := errors.Is(err, ErrStale); gotStale != tc.wantStale || (err != nil && !gotStale) {
				t.Errorf("err = %v, want stale %v", err, tc.wantStale)
			}
			if got.Push != tc.wantPush {
				t.Errorf("push = %d, want %d", got.Push, tc.wantPush)
			}
		})
	}
}

func TestDue(t *testing.T) {
	t.Parallel()
	pending := State{Status: Pending, Version: 1}
	failed := State{Status: Failed, Error: text("x"), Version: 1, Attempts: 1}
	cases := []struct {
		name                string
		old, cur            State
		wantSend, wantRetry bool
	}{
		{"a new item to push", State{}, pending, true, false},
		{"a new item with nothing decided", State{}, State{Status: Pending}, false, false},
		{"a new version", State{Status: Synced, Version: 1}, State{Status: Pending, Version: 2}, true, false},
		{"turned off", State{Status: Synced, Version: 1}, State{Status: Off, Version: 2}, false, false},
		{"confirmed", pending, State{Status: Synced, Version: 1}, false, false},
		{"failed", pending, failed, false, true},
		{"failed again", State{Status: Failed, Version: 1, Attempts: 1, Push: 1}, State{Status: Failed, Version: 1, Attempts: 2, Push: 1}, false, true},
		{"its retry came", failed, State{Status: Failed, Error: failed.Error, Version: 1, Attempts: 1, Push: 1}, true, false},
		{"an unrelated write", failed, failed, false, false},
		{"failed, then replaced", failed, State{Status: Failed, Version: 2, Attempts: 1}, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gotSend, gotRetry := Due(tc.old, tc.cur)
			if gotSend != tc.wantSend || gotRetry != tc.wantRetry {
				t.Errorf("Due = send %v, retry %v; want %v, %v", gotSend, gotRetry, tc.wantSend, tc.wantRetry)
			}
		})
	}
}
