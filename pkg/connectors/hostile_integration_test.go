package connectors_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/store"
)

// statusLog is a connectors.Status that keeps the last error recorded.
type statusLog struct {
	mu      sync.Mutex
	lastErr string
}

func (*statusLog) RecordPoll(context.Context, string, string, time.Time) error { return nil }
func (*statusLog) RecordPush(context.Context, string, string, time.Time) error { return nil }

// RecordError keeps message.
func (s *statusLog) RecordError(_ context.Context, _, _, message string, _ time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastErr = message
	return nil
}

// last is the last error recorded.
func (s *statusLog) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastErr
}

// TestPollBindsTheChannel: orders whose documents name another channel of the account (or
// none) are refused, counted as a bad answer and recorded as the channel's last error; the
// channel's own orders are imported and the cursor moves on.
func TestPollBindsTheChannel(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	status := &statusLog{}
	svc := connectors.Service{Runtime: f.runtime(time.Second), Status: status}
	at := time.Now().Add(-time.Minute)
	f.order("OWN-1", at)
	other, _ := json.Marshal(map[string]any{"channel_uuid": store.NewID(), "display_ref": "OTHER-1", "status": "cancelled"})
	f.sb.PutOrder(f.seller, sandbox.GenericOrder{ID: "OTHER-1", UpdatedAt: at, Document: other})
	f.sb.PutOrder(f.seller, sandbox.GenericOrder{ID: "NONE-1", UpdatedAt: at, Document: json.RawMessage(`{"display_ref":"NONE-1"}`)})
	res, err := svc.PollChannel(ctx(t, 60*time.Second), connectors.ChannelRef{Account: f.ch.Account, UUID: f.ch.UUID})
	if err != nil {
		t.Fatal(err)
	}
	got := f.inbox.TakeCounts()
	if want := map[string]int{"OWN-1": 1}; len(got) != 1 || got["OWN-1"] != 1 {
		t.Errorf("inbox got %v, want %v", got, want)
	}
	if res.Refused == nil || res.Orders != 1 || res.Cursor.IsZero() {
		t.Errorf("poll %+v, want 1 order, 2 refused and a cursor", res)
	}
	if last := status.last(); !strings.Contains(last, "2 orders refused") {
		t.Errorf("last_error %q, want the refused orders", last)
	}
}

// TestPollPagesBounded: a page token answered twice ends the poll at once as a bad answer
// (recorded as the last error), and a channel of endless pages is read MaxPollPages pages a
// poll.
func TestPollPagesBounded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		next      func(page int) string
		wantCalls int64
		wantBad   bool
	}{
		{"the same token again", func(int) string { return "self" }, 2, true},
		{"a token of an earlier page", func(page int) string { return strconv.Itoa((page + 1) % 3) }, 4, true},
		{"endless pages", func(page int) string { return strconv.Itoa(page + 1) }, connectors.MaxPollPages, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, nil)
			var calls atomic.Int64
			mux := http.NewServeMux()
			mux.HandleFunc("/oauth/token", func(w http.ResponseWriter, _ *http.Request) {
				sandbox.WriteJSON(w, http.StatusOK, map[string]any{"access_token": "tok", "expires_in": 3600})
			})
			mux.HandleFunc("/v1/orders", func(w http.ResponseWriter, r *http.Request) {
				page, _ := strconv.Atoi(r.URL.Query().Get("page_token"))
				calls.Add(1)
				sandbox.WriteJSON(w, http.StatusOK, map[string]any{"orders": []any{}, "next_page_token": tt.next(page)})
			})
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			f.ch.Endpoints = connectors.Endpoints{API: srv.URL, Auth: srv.URL + "/oauth/token"}
			status := &statusLog{}
			svc := connectors.Service{Runtime: f.runtime(time.Second), Status: status}
			res, err := svc.PollChannel(ctx(t, 120*time.Second), connectors.ChannelRef{Account: f.ch.Account, UUID: f.ch.UUID})
			if err != nil {
				t.Fatal(err)
			}
			if got := calls.Load(); got != tt.wantCalls {
				t.Errorf("%d calls, want %d", got, tt.wantCalls)
			}
			if got := strings.Contains(status.last(), "page token"); got != tt.wantBad {
				t.Errorf("last_error %q, want one of the page token: %v", status.last(), tt.wantBad)
			}
			if !tt.wantBad && res.Pages != connectors.MaxPollPages {
				t.Errorf("%d pages, want %d", res.Pages, connectors.MaxPollPages)
			}
			var bad *connectors.BadAnswer
			if _, err := f.runtime(time.Second).Poll(ctx(t, 120*time.Second), f.ch); errors.As(err, &bad) != tt.wantBad {
				t.Errorf("poll again: %v, want a bad answer: %v", err, tt.wantBad)
			}
		})
	}
}
