package listings

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/push"
)

func i64(v int64) *int64   { return &v }
func str(s string) *string { return &s }

func overrideOf(t *testing.T, raw string) channels.Override {
	t.Helper()
	o, err := channels.ParseOverride(lenient.Field{Name: "inventory_rules", Raw: json.RawMessage(raw), Present: true})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestDecide(t *testing.T) {
	t.Parallel()
	active := channels.Channel{UUID: "c", State: channels.StateActive, InventoryRules: channels.Rules{Percent: 50, Max: i64(100), Sync: true}}
	inactive := active
	inactive.State = channels.StateInactive
	stock := Stock{"A": 9, "B": 2}
	linked := func(mod func(*record)) *record {
		r := &record{Listing: Listing{SKU: str("S"), SyncStatus: StatusPending}}
		if mod != nil {
			mod(r)
		}
		return r
	}
	cases := []struct {
		name        string
		rec         *record
		ch          channels.Channel
		wantChanged bool
		wantStatus  string
		wantQty     *int64
		wantVersion int64
	}{
		{"new linked listing gets version 1", linked(nil), active, true, StatusPending, i64(5), 1},
		{"unchanged quantity keeps its version", linked(func(r *record) { r.Version, r.Quantity, r.SyncStatus = 3, i64(5), StatusSynced }), active, false, StatusSynced, i64(5), 3},
		{"failed stays failed with the same quantity", linked(func(r *record) { r.Version, r.Quantity, r.SyncStatus = 3, i64(5), StatusFailed }), active, false, StatusFailed, i64(5), 3},
		{"new quantity is a new pending version", linked(func(r *record) { r.Version, r.Quantity, r.SyncStatus = 3, i64(4), StatusSynced }), active, true, StatusPending, i64(5), 4},
		{"channel not active is off", linked(func(r *record) { r.Version, r.Quantity = 2, i64(5) }), inactive, true, StatusOff, nil, 3},
		{"already off stays", linked(func(r *record) { r.Version, r.SyncStatus = 2, StatusOff }), inactive, false, StatusOff, nil, 2},
		{"rules sync false is off", linked(func(r *record) { r.InventoryRules = overrideOf(t, `{"sync":false}`) }), active, true, StatusOff, nil, 1},
		{"override of one field keeps the channel's others", linked(func(r *record) { r.InventoryRules = overrideOf(t, `{"percent":100}`) }), active, true, StatusPending, i64(11), 1},
		{"override max keeps percent", linked(func(r *record) { r.InventoryRules = overrideOf(t, `{"max":3}`) }), active, true, StatusPending, i64(3), 1},
		{"unlinked", &record{Listing: Listing{SyncStatus: StatusPending, Quantity: i64(3)}, Version: 1}, active, true, StatusUnlinked, nil, 2},
		{"back on from off", linked(func(r *record) { r.Version, r.SyncStatus = 2, StatusOff }), active, true, StatusPending, i64(5), 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := *tc.rec
			r.Attempts, r.Push = 2, 1
			got := decide(&r, tc.ch, stock, "2026-01-01T00:00:00Z")
			if got != tc.wantChanged || r.SyncStatus != tc.wantStatus || r.Version != tc.wantVersion {
				t.Errorf("decide = %v %s v%d, want %v %s v%d", got, r.SyncStatus, r.Version, tc.wantChanged, tc.wantStatus, tc.wantVersion)
			}
			if (r.Quantity == nil) != (tc.wantQty == nil) || (r.Quantity != nil && *r.Quantity != *tc.wantQty) {
				t.Errorf("quantity = %v, want %v", r.Quantity, tc.wantQty)
			}
			if got && (r.Attempts != 0 || r.Push != 0) {
				t.Errorf("a new version keeps attempts %d, push %d", r.Attempts, r.Push)
			}
		})
	}
}

func TestGroupFitsSQS(t *testing.T) {
	t.Parallel()
	long := string(make([]byte, 255))
	g := group("acct_0123456789abcdef0123", "01a20a0a-6645-73de-87f0-333b52416f8c", long)
	if d := dedup(g, 1<<40, 1<<20); len(g) > 128 || len(d) > 128 {
		t.Errorf("group %d, dedup %d characters: SQS takes 128", len(g), len(d))
	}
	if group("a", "b", "c") == group("a", "b", "d") {
		t.Error("two listings share a message group")
	}
}

func TestLatestSendWins(t *testing.T) {
	t.Parallel()
	a1 := &record{Listing: Listing{ChannelUUID: "c", ChannelSKU: "A"}, Version: 1}
	b1 := &record{Listing: Listing{ChannelUUID: "c", ChannelSKU: "B"}, Version: 1}
	a2 := &record{Listing: Listing{ChannelUUID: "c", ChannelSKU: "A"}, Version: 2}
	var sends []*record
	for _, r := range []*record{a1, b1, a2} {
		sends = latest(sends, r)
	}
	if len(sends) != 2 || sends[0] != a2 || sends[1] != b1 {
		t.Errorf("sends = %+v, want A v2 then B v1", sends)
	}
}

func TestPace(t *testing.T) {
	t.Parallel()
	t0 := time.UnixMilli(1_700_000_000_000)
	pending := func(sent, held int64) *record {
		return &record{Listing: Listing{SyncStatus: StatusPending, Quantity: i64(5)}, Version: 7, SentAt: sent, Held: held}
	}
	ms := t0.UnixMilli()
	cases := []struct {
		name     string
		rec      *record
		at       time.Time
		want     bool
		wantSent int64
		wantHeld int64
	}{
		{"never sent goes at once", pending(0, 0), t0, true, ms, 0},
		{"an interval after the last goes at once", pending(ms-1000, 0), t0, true, ms, 0},
		{"within the interval starts a hold", pending(ms-300, 0), t0, false, ms - 300, 7},
		{"within a hold folds into it", pending(ms-300, 5), t0, false, ms - 300, 5},
		{"a hold past its end folds until its release comes", pending(ms-5000, 5), t0, false, ms - 5000, 5},
		{"a hold lost for a minute goes at once", pending(ms-62_000, 5), t0, true, ms, 0},
		{"off ends the hold and sends nothing", &record{Listing: Listing{SyncStatus: StatusOff}, Version: 7, SentAt: ms - 300, Held: 5}, t0, false, ms - 300, 0},
		{"after two holds in a row a change at once holds again", &record{Listing: Listing{SyncStatus: StatusPending, Quantity: i64(5)}, Version: 7, SentAt: ms - 300, Streak: 2}, t0, false, ms - 300, 7},
		{"after two holds in a row, a quiet interval goes at once and starts over", &record{Listing: Listing{SyncStatus: StatusPending, Quantity: i64(5)}, Version: 7, SentAt: ms - 1000, Streak: 2}, t0, true, ms, 0},
		{"a hold of the 4 s interval past 1 s folds", &record{Listing: Listing{SyncStatus: StatusPending, Quantity: i64(5)}, Version: 7, SentAt: ms - 3000, Held: 6, Streak: 2}, t0, false, ms - 3000, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := *tc.rec
			got := pace(&r, tc.at, time.Second)
			if got != tc.want || r.SentAt != tc.wantSent || r.Held != tc.wantHeld {
				t.Errorf("pace = %v sent %d held %d, want %v sent %d held %d", got, r.SentAt, r.Held, tc.want, tc.wantSent, tc.wantHeld)
			}
			if got && r.Streak != 0 {
				t.Errorf("a version that went at once left streak %d, want 0", r.Streak)
			}
		})
	}
}

func TestHoldLeft(t *testing.T) {
	t.Parallel()
	t0 := time.UnixMilli(1_700_000_000_000)
	cases := []struct {
		name string
		sent int64
		want time.Duration
	}{
		{"just sent", t0.UnixMilli(), time.Second},
		{"part gone", t0.UnixMilli() - 300, 700 * time.Millisecond},
		{"over", t0.UnixMilli() - 3000, 0},
		{"a clock behind waits the interval at most", t0.UnixMilli() + 5000, time.Second},
		{"the third hold in a row waits 4 s", t0.UnixMilli() - 1000, 3 * time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			streak := int64(0)
			if tc.want > time.Second {
				streak = 2
			}
			if got := holdLeft(&record{SentAt: tc.sent, Streak: streak}, t0, time.Second); got != tc.want {
				t.Errorf("holdLeft = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRelease(t *testing.T) {
	t.Parallel()
	t0 := time.UnixMilli(1_700_000_000_000)
	cases := []struct {
		name    string
		status  string
		held    int64
		msg     int64
		wantErr error
	}{
		{"the hold's own release sends", StatusPending, 5, 5, nil},
		{"released already", StatusPending, 0, 5, push.ErrStale},
		{"the release of an earlier hold", StatusPending, 9, 5, push.ErrStale},
		{"turned off meanwhile", StatusOff, 5, 5, push.ErrStale},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &record{Listing: Listing{SyncStatus: tc.status, Quantity: i64(1)}, Version: 9, SentAt: 1, Held: tc.held}
			err := release(r, tc.msg, t0)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("release = %v, want %v", err, tc.wantErr)
			}
			if err == nil && (r.Held != 0 || r.SentAt != t0.UnixMilli() || r.Streak != 1) {
				t.Errorf("released: held %d sent %d streak %d, want 0, %d and 1", r.Held, r.SentAt, r.Streak, t0.UnixMilli())
			}
		})
	}
}
