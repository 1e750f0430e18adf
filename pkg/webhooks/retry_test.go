package webhooks_test

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/webhooks"
)

// TestRetries: a receiver that fails is tried again with the same
// webhook-id, on the schedule the stack is configured with (the harness's
// is three retries a second apart), and the delivery's log shows each
// attempt.
func TestRetries(t *testing.T) {
	t.Parallel()
	schedule := testenv.Get(t).Config.WebhookRetrySchedule
	cases := []struct {
		name string
		// answer is the receiver's status for the n-th attempt (0: none).
		answer func(n int) int
		// wantCodes are the status codes the log shows (0: no answer).
		wantCodes  []int
		wantStatus string
	}{
		{"500 twice then 200", func(n int) int { return map[bool]int{true: 500, false: 200}[n <= 2] },
			[]int{500, 500, 200}, webhooks.StatusSucceeded},
		{"never answers", func(int) int { return 0 },
			make([]int, len(schedule)+1), webhooks.StatusFailed},
		{"always 503", func(int) int { return http.StatusServiceUnavailable },
			slices.Repeat([]int{503}, len(schedule)+1), webhooks.StatusFailed},
		{"a redirect is a failure", func(n int) int { return map[bool]int{true: 302, false: 204}[n == 1] },
			[]int{302, 204}, webhooks.StatusSucceeded},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHooked(t, events.ProductUpdated)
			h.rcv.answer = func(_ string, n int) int { return tc.answer(n) }
			h.Product("P1")

			var d webhooks.Delivery
			testenv.WaitFor(t, func() bool {
				ds := h.deliveries(h.hook.ID, "")
				if len(ds) == 1 && ds[0].Status != webhooks.StatusPending {
					d = ds[0]
					return true
				}
				return false
			}, "the delivery to end")
			got := h.rcv.withID(d.EventID)
			if len(got) != len(tc.wantCodes) {
				t.Fatalf("receiver got %d attempts with webhook-id %s, want %d", len(got), d.EventID, len(tc.wantCodes))
			}
			for _, g := range got {
				if len(g.Verified) != 1 {
					t.Errorf("attempt at %v: signature %q not verified", g.At, g.Signature)
				}
			}
			if d.Status != tc.wantStatus || d.AttemptCount != len(tc.wantCodes) || d.NextAttemptAt != nil {
				t.Errorf("delivery = %s after %d attempts (next %v), want %s after %d", d.Status, d.AttemptCount, d.NextAttemptAt, tc.wantStatus, len(tc.wantCodes))
			}
			var codes []int
			for _, a := range d.Attempts {
				code := 0
				if a.StatusCode != nil {
					code = *a.StatusCode
				}
				codes = append(codes, code)
				if (a.Error == nil) != (code >= 200 && code < 300) {
					t.Errorf("attempt %+v: error %v with status %d", a, a.Error, code)
				}
			}
			if !slices.Equal(codes, tc.wantCodes) {
				t.Errorf("logged status codes %v, want %v", codes, tc.wantCodes)
			}
			// Each retry waited about its turn of the schedule (jittered by a
			// fifth; SQS delays are whole seconds).
			for i := 1; i < len(got); i++ {
				if gap, least := got[i].At.Sub(got[i-1].At), schedule[i-1]*4/5; gap < least {
					t.Errorf("retry %d came %v after the previous attempt, before its wait %v", i, gap, schedule[i-1])
				}
			}
		})
	}
}

// TestRotatedSecret: after a rotation, deliveries carry two signatures,
// one by each secret, until the overlap ends; a ping is delivered like any
// event.
func TestRotatedSecret(t *testing.T) {
	t.Parallel()
	h := newHooked(t, events.ProductUpdated)
	old := h.hook.Secret
	r := h.C.Do(http.MethodPost, "/webhooks/"+h.hook.ID+"/rotate_secret", nil)
	if r.Status != http.StatusOK {
		t.Fatalf("rotate: %d %s", r.Status, r)
	}
	var out struct{ Webhook webhooks.Webhook }
	r.JSON(t, &out)
	if out.Webhook.Secret == "" || out.Webhook.Secret == old {
		t.Fatalf("rotation gave secret %q (old %q)", out.Webhook.Secret, old)
	}
	h.rcv.trust(out.Webhook.Secret, old)

	r = h.C.Do(http.MethodPost, "/webhooks/"+h.hook.ID+"/ping", nil)
	if r.Status != http.StatusAccepted {
		t.Fatalf("ping: %d %s", r.Status, r)
	}
	h.Product("P1")
	testenv.WaitFor(t, func() bool {
		return len(h.rcv.ofType(webhooks.PingType)) == 1 && len(h.rcv.ofType(events.ProductUpdated)) == 1
	}, "the ping and the product's event")
	for _, g := range h.rcv.all() {
		if got := signatures(g.Signature); len(got) != 2 || !slices.Equal(g.Verified, []int{0, 1}) {
			t.Errorf("%s: signatures %v verified by secrets %v, want two, by the new (0) and the old (1)", g.Event.Type, got, g.Verified)
		}
	}
	if r := h.C.Do(http.MethodGet, "/webhooks/"+h.hook.ID, nil); r.Status != http.StatusOK || slices.Contains([]string{old, out.Webhook.Secret}, "") {
		t.Errorf("GET after rotation: %d %s", r.Status, r)
	}
}

// TestStrandedDelivery: a delivery left pending without its queue message (a crash between
// the two) is sent again once overdue, by a manual retry (202, where a delivery pending
// and not overdue is 409) and by the sweep (Resend), and is delivered.
func TestStrandedDelivery(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	rcv, id, ping := failingPing(t, c)
	failed := settled(t, c, id, webhooks.StatusFailed)
	rcv.setAnswer(http.StatusOK)
	ctx := context.Background()
	strand := func(ago time.Duration) {
		t.Helper()
		if err := webhooks.Strand(ctx, env.Deps.Table, acct.ID, id, ping.Delivery.ID, time.Now().Add(-ago)); err != nil {
			t.Fatal(err)
		}
	}
	retry := func() int {
		return c.Do(http.MethodPost, "/webhooks/"+id+"/deliveries/"+ping.Delivery.ID+"/retry", nil).Status
	}

	strand(time.Minute)
	if got, want := retry(), http.StatusConflict; got != want {
		t.Errorf("retry of a delivery due a minute ago: %d, want %d (its message may still come)", got, want)
	}
	strand(webhooks.OverdueAfter + time.Minute)
	if got, want := retry(), http.StatusAccepted; got != want {
		t.Fatalf("retry of an overdue delivery: %d, want %d", got, want)
	}
	retried := settled(t, c, id, webhooks.StatusSucceeded)
	if retried.AttemptCount != failed.AttemptCount+1 {
		t.Errorf("after the retry: %d attempts, want %d", retried.AttemptCount, failed.AttemptCount+1)
	}

	strand(webhooks.OverdueAfter + time.Minute)
	n, err := env.Deps.Webhooks().Resend(ctx, time.Now().Add(-webhooks.OverdueAfter))
	if err != nil || n < 1 {
		t.Fatalf("the sweep sent %d, %v; want the stranded delivery", n, err)
	}
	swept := settled(t, c, id, webhooks.StatusSucceeded)
	if swept.AttemptCount != retried.AttemptCount+1 {
		t.Errorf("after the sweep: %d attempts, want %d", swept.AttemptCount, retried.AttemptCount+1)
	}
}
