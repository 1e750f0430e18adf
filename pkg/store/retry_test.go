package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestRetryWait(t *testing.T) {
	t.Parallel()
	cases := []struct {
		attempt  int
		min, max time.Duration
	}{
		{1, 2500 * time.Microsecond, 5 * time.Millisecond},
		{2, 5 * time.Millisecond, 10 * time.Millisecond},
		{5, 40 * time.Millisecond, 80 * time.Millisecond},
		{6, 50 * time.Millisecond, 100 * time.Millisecond},
		{60, 50 * time.Millisecond, 100 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.attempt), func(t *testing.T) {
			t.Parallel()
			for range 100 {
				if got := retryWait(tc.attempt); got < tc.min || got > tc.max {
					t.Fatalf("retryWait(%d) = %v, want %v to %v", tc.attempt, got, tc.min, tc.max)
				}
			}
		})
	}
}

func TestRetry(t *testing.T) {
	t.Parallel()
	other := errors.New("another failure")
	raced := fmt.Errorf("item: %w", ErrRaced)
	cases := []struct {
		name     string
		results  []error // op's result per attempt; the last repeats
		attempts int
		want     int // op's calls
		wantErr  error
	}{
		{"first time", []error{nil}, 3, 1, nil},
		{"after two races", []error{raced, raced, nil}, 3, 3, nil},
		{"another error ends it", []error{raced, other}, 3, 2, other},
		{"gives up", []error{raced}, 3, 3, ErrRaced},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := 0
			err := Retry(context.Background(), tc.attempts, Raced, func() error {
				got++
				return tc.results[min(got, len(tc.results))-1]
			})
			if got != tc.want {
				t.Errorf("op ran %d times, want %d", got, tc.want)
			}
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Errorf("err = %v, want %v", err, tc.wantErr)
			}
		})
	}
}

func TestRetryStopsWithContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	got := 0
	err := Retry(ctx, 10, Raced, func() error {
		got++
		cancel()
		return ErrRaced
	})
	if got, want := got, 1; got != want {
		t.Errorf("op ran %d times, want %d", got, want)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
