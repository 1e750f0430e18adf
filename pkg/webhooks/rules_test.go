package webhooks

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/isotime"
)

func TestParseSchedule(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want []time.Duration
		ok   bool
	}{
		{"", DefaultSchedule, true},
		{"   ", DefaultSchedule, true},
		{"1s", []time.Duration{time.Second}, true},
		{"5s,30s,2m", []time.Duration{5 * time.Second, 30 * time.Second, 2 * time.Minute}, true},
		{" 1s , 1m30s ,2h ", []time.Duration{time.Second, 90 * time.Second, 2 * time.Hour}, true},
		{"0s", []time.Duration{0}, true},
		{"0", []time.Duration{0}, true},
		{"500ms,1.5s", []time.Duration{500 * time.Millisecond, 1500 * time.Millisecond}, true},
		{"5s,30s,2m,10m,30m,1h,2h,4h,8h,12h,12h,10h", DefaultSchedule, true},
		{"-1s", nil, false},
		{"1s,-1s", nil, false},
		{"5", nil, false},
		{"abc", nil, false},
		{"1s,,2s", nil, false},
		{"1s,", nil, false},
		{",1s", nil, false},
		{"1s;2s", nil, false},
		{"1d", nil, false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			t.Parallel()
			got, err := ParseSchedule(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("ParseSchedule(%q) = %v, %v; want ok %v", tc.in, got, err, tc.ok)
			}
			if err != nil {
				if !strings.Contains(err.Error(), "retry schedule") {
					t.Errorf("error %q does not say what it is about", err)
				}
				return
			}
			if want := tc.want; !reflect.DeepEqual(got, want) {
				t.Errorf("ParseSchedule(%q) = %v, want %v", tc.in, got, want)
			}
		})
	}
}

func TestDefaultSchedule(t *testing.T) {
	t.Parallel()
	var total time.Duration
	for _, d := range DefaultSchedule {
		total += d
	}
	if got, want := len(DefaultSchedule), 12; got != want {
		t.Errorf("%d retries, want %d", got, want)
	}
	if total < 48*time.Hour || total > 60*time.Hour {
		t.Errorf("the schedule spans %v, want about two days", total)
	}
}

// within reports whether got is d jittered: within a fifth of d either way.
func within(got, d time.Duration) bool { return got >= d-d/5 && got <= d+d/5 }

func TestOutcome(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	schedule := []time.Duration{10 * time.Second, time.Minute, time.Hour}
	code := 500
	failed := Attempt{At: stamp(now), StatusCode: &code}
	ok200 := 200
	succeeded := Attempt{At: stamp(now), StatusCode: &ok200}
	cases := []struct {
		name       string
		tries      int
		ok         bool
		schedule   []time.Duration
		wantStatus string
		wantWait   time.Duration // 0: none; else the unjittered wait
	}{
		{"first attempt succeeds", 0, true, schedule, StatusSucceeded, 0},
		{"first attempt fails", 0, false, schedule, StatusPending, 10 * time.Second},
		{"second attempt fails", 1, false, schedule, StatusPending, time.Minute},
		{"last retry fails", 2, false, schedule, StatusPending, time.Hour},
		{"schedule spent", 3, false, schedule, StatusFailed, 0},
		{"last retry succeeds", 3, true, schedule, StatusSucceeded, 0},
		{"empty schedule fails at once", 0, false, nil, StatusFailed, 0},
		{"past the schedule", 7, false, schedule, StatusFailed, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := &delivery{Tries: tc.tries}
			d.AttemptCount = tc.tries + 5 // earlier rounds count too
			d.start(now.Add(-time.Minute))
			a := failed
			if tc.ok {
				a = succeeded
			}
			wait := d.outcome(a, tc.ok, tc.schedule, now)
			if got, want := d.Status, tc.wantStatus; got != want {
				t.Errorf("status = %s, want %s", got, want)
			}
			if got, want := d.Tries, tc.tries+1; got != want {
				t.Errorf("tries = %d, want %d", got, want)
			}
			if got, want := d.AttemptCount, tc.tries+6; got != want {
				t.Errorf("attempt_count = %d, want %d", got, want)
			}
			if got, want := d.Attempts, []Attempt{a}; !reflect.DeepEqual(got, want) {
				t.Errorf("attempts = %+v, want %+v", got, want)
			}
			if tc.wantWait == 0 {
				if wait != 0 || d.NextAttemptAt != nil {
					t.Errorf("wait %v, next_attempt_at %v; want none", wait, d.NextAttemptAt)
				}
				return
			}
			if !within(wait, tc.wantWait) {
				t.Errorf("wait = %v, want %v within a fifth", wait, tc.wantWait)
			}
			if d.NextAttemptAt == nil {
				t.Fatal("next_attempt_at = nil, want the retry's time")
			}
			if got, want := *d.NextAttemptAt, stamp(now.Add(wait)); got != want {
				t.Errorf("next_attempt_at = %s, want %s", got, want)
			}
			if got := d.due(now); got != wait.Truncate(time.Millisecond) {
				t.Errorf("due(now) = %v, want the wait %v", got, wait)
			}
		})
	}
}

// TestOutcomeRounds: a delivery failing every attempt is retried once per
// entry of the schedule, then fails; a manual retry starts a new round,
// and the attempt count goes on.
func TestOutcomeRounds(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	schedule := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}
	d := &delivery{}
	d.start(now)
	for round := 1; round <= 2; round++ {
		for i := range len(schedule) + 1 {
			if d.Status != StatusPending {
				t.Fatalf("round %d attempt %d: status %s before the attempt", round, i+1, d.Status)
			}
			wait := d.outcome(Attempt{At: stamp(now)}, false, schedule, now)
			if i < len(schedule) && !within(wait, schedule[i]) {
				t.Errorf("round %d attempt %d: wait %v, want %v within a fifth", round, i+1, wait, schedule[i])
			}
		}
		if got, want := d.Status, StatusFailed; got != want {
			t.Errorf("round %d: status %s, want %s", round, got, want)
		}
		if got, want := d.AttemptCount, round*(len(schedule)+1); got != want {
			t.Errorf("round %d: attempt_count %d, want %d", round, got, want)
		}
		d.Tries = 0 // what Service.Retry does
		d.start(now)
	}
	if got, want := d.Push, int64(3); got != want {
		t.Errorf("push = %d, want %d (the first send and two retries)", got, want)
	}
}

// TestOutcomeLogCapped: the log keeps the newest 20 attempts, oldest first.
func TestOutcomeLogCapped(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	d := &delivery{}
	d.start(now)
	long := make([]time.Duration, 50)
	for i := range 25 {
		code := 500 + i
		d.outcome(Attempt{At: stamp(now.Add(time.Duration(i) * time.Second)), StatusCode: &code}, false, long, now)
		if got, want := len(d.Attempts), min(i+1, maxLoggedAttempts); got != want {
			t.Fatalf("after %d attempts the log holds %d, want %d", i+1, got, want)
		}
	}
	if got, want := d.AttemptCount, 25; got != want {
		t.Errorf("attempt_count = %d, want %d", got, want)
	}
	var codes []int
	for _, a := range d.Attempts {
		codes = append(codes, *a.StatusCode)
	}
	want := make([]int, 0, maxLoggedAttempts)
	for i := 5; i < 25; i++ {
		want = append(want, 500+i)
	}
	if !slices.Equal(codes, want) {
		t.Errorf("logged status codes %v, want %v", codes, want)
	}
}

func TestFinish(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	d := &delivery{}
	d.start(now)
	next := stamp(now.Add(time.Minute))
	d.NextAttemptAt = &next
	d.finish("the webhook was deleted", now)
	if d.Status != StatusFailed || d.NextAttemptAt != nil || d.AttemptCount != 0 {
		t.Errorf("finished delivery: %+v", d.Delivery)
	}
	if len(d.Attempts) != 1 || d.Attempts[0].Error == nil || *d.Attempts[0].Error != "the webhook was deleted" || d.Attempts[0].StatusCode != nil {
		t.Errorf("attempts = %+v, want one with the reason", d.Attempts)
	}
}

func TestDue(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	at := func(s string) *string { return &s }
	cases := []struct {
		name string
		next *string
		want time.Duration
	}{
		{"none", nil, 0},
		{"in 5 s", at(stamp(now.Add(5 * time.Second))), 5 * time.Second},
		{"in 1.5 s", at(stamp(now.Add(1500 * time.Millisecond))), 1500 * time.Millisecond},
		{"now", at(stamp(now)), 0},
		{"a minute ago", at(stamp(now.Add(-time.Minute))), -time.Minute},
		{"whole seconds", at("2024-05-01T12:00:10Z"), 10 * time.Second},
		{"with an offset", at("2024-05-01T14:00:10+02:00"), 10 * time.Second},
		{"not a time", at("soon"), 0},
		{"empty", at(""), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := &delivery{}
			d.NextAttemptAt = tc.next
			if got, want := d.due(now), tc.want; got != want {
				t.Errorf("due = %v, want %v", got, want)
			}
		})
	}
}

func TestJitter(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{-time.Second, 0} {
		if got := jitter(d); got != 0 {
			t.Errorf("jitter(%v) = %v, want 0", d, got)
		}
	}
	for _, d := range []time.Duration{1, 4} { // a fifth of it is nothing
		if got := jitter(d); got != d {
			t.Errorf("jitter(%v) = %v, want %v", d, got, d)
		}
	}
	for _, d := range []time.Duration{5, time.Second, 10 * time.Hour, DefaultSchedule[len(DefaultSchedule)-1]} {
		lo, hi := d-d/5, d+d/5
		var below, above bool
		for range 2000 {
			got := jitter(d)
			if got < lo || got > hi {
				t.Fatalf("jitter(%v) = %v, outside [%v, %v]", d, got, lo, hi)
			}
			below = below || got < d
			above = above || got > d
		}
		if !below || !above {
			t.Errorf("jitter(%v) spreads one way only: below %v, above %v", d, below, above)
		}
	}
}

func TestSecrets(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name     string
		previous string
		until    string
		at       time.Time
		want     []string
	}{
		{"no rotation", "", "", now, []string{"new"}},
		{"during the overlap", "old", isotime.Format(now.Add(time.Hour)), now, []string{"new", "old"}},
		{"a second before its end", "old", isotime.Format(now.Add(time.Hour)), now.Add(time.Hour - time.Second), []string{"new", "old"}},
		{"at its end", "old", isotime.Format(now.Add(time.Hour)), now.Add(time.Hour), []string{"new"}},
		{"after it", "old", isotime.Format(now.Add(time.Hour)), now.Add(48 * time.Hour), []string{"new"}},
		{"end unreadable", "old", "tomorrow", now, []string{"new"}},
		{"end missing", "old", "", now, []string{"new"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &hook{Key: "new", Previous: tc.previous, PreviousUntil: tc.until}
			if got, want := h.secrets(tc.at), tc.want; !slices.Equal(got, want) {
				t.Errorf("secrets = %v, want %v", got, want)
			}
		})
	}
}

// TestRotate: after a rotation both secrets sign, the new one first, for
// 24 hours; then the new one alone. A second rotation drops the first
// secret at once.
func TestRotate(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	h := &hook{Key: "one"}
	h.rotate("two", now)
	steps := []struct {
		at   time.Time
		want []string
	}{
		{now, []string{"two", "one"}},
		{now.Add(23*time.Hour + 59*time.Minute), []string{"two", "one"}},
		{now.Add(24 * time.Hour), []string{"two"}},
		{now.Add(25 * time.Hour), []string{"two"}},
	}
	for _, s := range steps {
		if got := h.secrets(s.at); !slices.Equal(got, s.want) {
			t.Errorf("secrets %v after the rotation = %v, want %v", s.at.Sub(now), got, s.want)
		}
	}
	h.rotate("three", now.Add(time.Hour))
	if got, want := h.secrets(now.Add(time.Hour)), []string{"three", "two"}; !slices.Equal(got, want) {
		t.Errorf("secrets after a second rotation = %v, want %v", got, want)
	}
}

func TestWants(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		active bool
		events []string
		typ    string
		want   bool
	}{
		{"all, active", true, []string{events.AllTypes}, events.OrderCreated, true},
		{"all, inactive", false, []string{events.AllTypes}, events.OrderCreated, false},
		{"listed", true, []string{events.OrderCreated, events.ShipmentCreated}, events.ShipmentCreated, true},
		{"listed, inactive", false, []string{events.OrderCreated}, events.OrderCreated, false},
		{"not listed", true, []string{events.OrderCreated}, events.OrderUpdated, false},
		{"a prefix is not a match", true, []string{"order"}, events.OrderCreated, false},
		{"none", true, []string{}, events.OrderCreated, false},
		{"nil", true, nil, events.OrderCreated, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &hook{Webhook: Webhook{Active: tc.active, Events: tc.events}}
			if got, want := h.wants(tc.typ), tc.want; got != want {
				t.Errorf("wants(%s) = %v, want %v", tc.typ, got, want)
			}
		})
	}
	all := &hook{Webhook: Webhook{Active: true, Events: []string{events.AllTypes}}}
	for _, typ := range events.Types {
		if !all.wants(typ) {
			t.Errorf("a * webhook does not want %s", typ)
		}
	}
}

func TestDeliveryIDs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id   string
		want bool
	}{
		{eventDeliveryID(1), true},
		{eventDeliveryID(0), true},
		{eventDeliveryID(9_999_999_999_999_999), true},
		{pingDeliveryID(0), true},
		{pingDeliveryID(42), true},
		{"dlv_0000000000000001", true},
		{"dlv_0000000000000001_ping0123456789abcdef", true},
		{"", false},
		{"dlv_", false},
		{"dlv_1", false},
		{"dlv_000000000000001", false},
		{"dlv_00000000000000001", false},
		{"DLV_0000000000000001", false},
		{"dlv-0000000000000001", false},
		{"xdlv_0000000000000001", false},
		{"dlv_0000000000000001x", false},
		{"dlv_0000000000000001\n", false},
		{"dlv_000000000000000a", false},
		{"dlv_٠٠٠٠٠٠٠٠٠٠٠٠٠٠٠١", false},
		{"dlv_0000000000000001_ping", false},
		{"dlv_0000000000000001_ping0123456789ABCDEF", false},
		{"dlv_0000000000000001_ping0123456789abcde", false},
		{"dlv_0000000000000001_ping0123456789abcdef0", false},
		{"dlv_0000000000000001_pong0123456789abcdef", false},
		{"dlv_0000000000000001_ping0123456789abcdeg", false},
		{"0193a5c8-0000-7000-8000-000000000000", false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q", tc.id), func(t *testing.T) {
			t.Parallel()
			if got, want := validDeliveryID(tc.id), tc.want; got != want {
				t.Errorf("validDeliveryID(%q) = %v, want %v", tc.id, got, want)
			}
		})
	}
	if got, want := eventDeliveryID(42), "dlv_0000000000000042"; got != want {
		t.Errorf("eventDeliveryID(42) = %s, want %s", got, want)
	}
	ping := pingDeliveryID(42)
	if got, want := ping[:len("dlv_0000000000000042_ping")], "dlv_0000000000000042_ping"; got != want {
		t.Errorf("pingDeliveryID(42) = %s, want it to start %s", ping, want)
	}
	if pingDeliveryID(42) == ping {
		t.Errorf("two pings at seq 42 have the same id %s", ping)
	}
}

// TestDeliveryIDOrder: ids sort by creation, so the reversed Query of a
// webhook's deliveries lists the newest first: an event's delivery after
// the earlier events' and pings, a ping after the events the feed held
// when it was sent and the earlier pings.
func TestDeliveryIDOrder(t *testing.T) {
	t.Parallel()
	var ids []string // in the order of creation
	for seq := int64(1); seq <= 3; seq++ {
		ids = append(ids, eventDeliveryID(seq))
		for range 4 {
			ids = append(ids, pingDeliveryID(seq))
		}
	}
	ids = append(ids, eventDeliveryID(10), eventDeliveryID(100), eventDeliveryID(1_000_000))
	for i := 1; i < len(ids); i++ {
		if ids[i-1] >= ids[i] {
			t.Errorf("%s (created before) sorts at or after %s", ids[i-1], ids[i])
		}
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	u, d, active := "https://b.example.com/", "new", false
	base := func() *hook {
		desc := "old"
		return &hook{Webhook: Webhook{URL: "https://a.example.com/", Events: []string{events.OrderCreated}, Description: &desc, Active: true}}
	}
	cases := []struct {
		name string
		in   Input
		want func(*hook)
	}{
		{"nothing", Input{}, func(*hook) {}},
		{"url", Input{URL: &u}, func(h *hook) { h.URL = u }},
		{"events", Input{Events: []string{events.AllTypes}}, func(h *hook) { h.Events = []string{events.AllTypes} }},
		{"description", Input{Description: &d, DescriptionSet: true}, func(h *hook) { h.Description = &d }},
		{"description cleared", Input{DescriptionSet: true}, func(h *hook) { h.Description = nil }},
		{"description absent", Input{Description: &d}, func(*hook) {}},
		{"inactive", Input{Active: &active}, func(h *hook) { h.Active = false }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, want := base(), base()
			got.apply(tc.in)
			tc.want(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("apply(%+v) = %+v, want %+v", tc.in, got.Webhook, want.Webhook)
			}
		})
	}
}
