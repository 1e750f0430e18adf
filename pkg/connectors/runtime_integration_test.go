package connectors_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// fixture is a test's account, channel on a generic sandbox seller, and runtimes (one per
// instance of the functions: they share only the table).
type fixture struct {
	env     *testenv.Env
	sb      *sandbox.Generic
	ch      connectors.Channel
	inbox   *connectorstest.Inbox
	sealer  connectorstest.Sealer
	seller  string
	secrets map[string]string
}

var registerOnce sync.Once

// newFixture starts a generic sandbox with one seller, and a channel of the account on it
// served by a connector of the published limits (registered under the test's name).
func newFixture(t *testing.T, limits map[string]connectors.Limit) *fixture {
	t.Helper()
	env := testenv.Get(t)
	sb, err := sandbox.NewGeneric()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	name := fmt.Sprintf("generic-%s-%d", t.Name(), time.Now().UnixNano())
	connectors.Register(&sandbox.Connector{Name: name, ChannelType: name, Limits: limits})
	registerOnce.Do(func() { connectors.Register(sandbox.GenericConnector) })
	f := &fixture{env: env, sb: sb, inbox: &connectorstest.Inbox{}, sealer: connectorstest.NewSealer(t), seller: "client-1",
		secrets: map[string]string{"client_id": "client-1", "client_secret": "s3cr3t-value", "refresh_token": "refresh-value"}}
	sb.AddSeller("client-1", "s3cr3t-value", "refresh-value")
	acct := env.NewAccount(t, testenv.AccountOptions{})
	f.ch = connectors.Channel{Account: acct.ID, UUID: store.NewID(), Connector: name,
		Endpoints: connectors.Endpoints{API: sb.URL, Auth: sb.URL + "/oauth/token"}}
	plain, _ := json.Marshal(f.secrets)
	f.ch.Credentials, _ = f.sealer.Seal(context.Background(), acct.ID, f.ch.UUID, plain)
	return f
}

// runtime is a new instance of the runtime.
func (f *fixture) runtime(maxWait time.Duration) *connectors.Runtime {
	return &connectors.Runtime{Table: f.env.Deps.Table, Sealer: f.sealer, Inbox: f.inbox,
		Channels: connectorstest.Channels{Ch: f.ch}, Policy: webhookhttp.Policy{Local: true}, MaxWait: maxWait,
		Overlap: time.Second}
}

// quantity is an outbox listing.quantity message of the fixture's channel.
func (f *fixture) quantity(sku string, q, version int64) connectors.Message {
	b, _ := json.Marshal(map[string]any{"type": "listing.quantity", "account_id": f.ch.Account, "channel_uuid": f.ch.UUID,
		"channel_type": "Generic", "channel_sku": sku, "listing_ref": nil, "sku": sku, "quantity": q, "version": version})
	return connectors.Message{ID: fmt.Sprintf("%s-%d", sku, version), Body: string(b), Account: f.ch.Account}
}

// order places an order in the sandbox, updated at.
func (f *fixture) order(ref string, at time.Time) {
	doc, _ := json.Marshal(map[string]any{"channel_uuid": f.ch.UUID, "display_ref": ref})
	f.sb.PutOrder(f.seller, sandbox.GenericOrder{ID: ref, UpdatedAt: at, Document: doc})
}

// ctx is a test's bounded context.
func ctx(t *testing.T, d time.Duration) context.Context {
	c, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return c
}

// TestBucketHoldsTheLimit: pushes of three instances at once, at a published 1 call/s, reach
// the sandbox (which holds the same limit) with no call over it, and one token exchange
// serves them all.
func TestBucketHoldsTheLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]connectors.Limit{sandbox.OpInventory: {Rate: 1, Burst: 1}})
	f.sb.SetLimit(sandbox.OpInventory, 1, 1)
	c := ctx(t, 60*time.Second)
	start := time.Now()
	const n = 6
	var wg sync.WaitGroup
	outcomes := make([]connectors.Outcome, n)
	for i := range n {
		rt := f.runtime(20 * time.Second)
		wg.Go(func() {
			outcomes[i] = rt.Push(c, []connectors.Message{f.quantity(fmt.Sprintf("SKU-%d", i), int64(i), 1)}).Outcomes[0]
		})
	}
	wg.Wait()
	for i, o := range outcomes {
		if o.Drop != "" || o.Err != nil || !o.RetryAt.IsZero() {
			t.Errorf("push %d: %+v, want done", i, o)
		}
	}
	if got, want := f.sb.Calls(sandbox.OpInventory), n; got != want {
		t.Errorf("the sandbox saw %d pushes, want %d", got, want)
	}
	if got := f.sb.Over(sandbox.OpInventory); got != 0 {
		t.Errorf("%d calls over the limit", got)
	}
	if got, want := time.Since(start), (n-1)*time.Second-100*time.Millisecond; got < want {
		t.Errorf("%d pushes in %v, faster than 1/s", n, got)
	}
	if got := f.sb.Calls(sandbox.OpToken); got != 1 {
		t.Errorf("%d token exchanges, want 1", got)
	}
	for i := range n {
		if q, ok := f.sb.Quantity(f.seller, fmt.Sprintf("SKU-%d", i)); !ok || q != int64(i) {
			t.Errorf("SKU-%d shows %d, %v", i, q, ok)
		}
	}
}

// TestThrottledPushes: a 429 with Retry-After closes the bucket; a short wait is waited and
// the push ends ok, a long one puts the message off (no result, never failed).
func TestThrottledPushes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		retryAfter time.Duration
		wantOK     int // results ok
		wantPutOff int // messages to retry later
	}{
		{"short Retry-After is waited", time.Second, 4, 0},
		{"long Retry-After puts the pushes off", 30 * time.Second, 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// Published 2/s while the sandbox holds 1/s and says so: its rate header corrects the bucket.
			f := newFixture(t, map[string]connectors.Limit{sandbox.OpInventory: {Rate: 2, Burst: 1}})
			f.sb.SetLimit(sandbox.OpInventory, 1, 1)
			f.sb.ThrottleNext(sandbox.OpInventory, 2, tt.retryAfter)
			rt := f.runtime(3 * time.Second)
			c := ctx(t, 60*time.Second)
			var putOff int
			for i := range 4 {
				rep := rt.Push(c, []connectors.Message{f.quantity(fmt.Sprintf("SKU-%d", i), 5, 1)})
				o := rep.Outcomes[0]
				switch {
				case o.Err != nil || o.Drop != "":
					t.Fatalf("push %d: %+v", i, o)
				case !o.RetryAt.IsZero():
					putOff++
					if d := time.Until(o.RetryAt); d < tt.retryAfter-2*time.Second {
						t.Errorf("put off for %v, want about %v", d, tt.retryAfter)
					}
				}
			}
			var ok int
			for _, r := range f.inbox.Results() {
				if r["ok"] != true {
					t.Errorf("a failed result: %v", r)
				}
				ok++
			}
			if ok != tt.wantOK || putOff != tt.wantPutOff {
				t.Errorf("%d ok results and %d put off, want %d and %d", ok, putOff, tt.wantOK, tt.wantPutOff)
			}
			if got := f.sb.Over(sandbox.OpInventory); got != 0 {
				t.Errorf("%d calls over the limit", got)
			}
		})
	}
}

// TestPollResumesAfterFailure: a poll whose inbox send fails on its second page keeps its
// place; the next poll goes on from that page (each order sent once by the two), and later
// polls send only what changed after (and the overlap).
func TestPollResumesAfterFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	rt := f.runtime(time.Second)
	c := ctx(t, 60*time.Second)
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	f.order("OLD-1", base)
	if _, err := rt.Poll(c, f.ch); err != nil {
		t.Fatal(err)
	}
	f.inbox.TakeCounts()
	for i := range 120 { // three pages of 50
		f.order(fmt.Sprintf("N-%03d", i), base.Add(time.Duration(10+i)*time.Second))
	}
	f.inbox.SetFail(func(n int) bool { return n == 3 }) // the second page of the next poll
	failed, err := rt.Poll(c, f.ch)
	if err == nil {
		t.Fatal("a poll whose inbox failed succeeded")
	}
	f.inbox.SetFail(nil)
	got := f.inbox.TakeCounts()
	res, err := rt.Poll(c, f.ch)
	if err != nil {
		t.Fatal(err)
	}
	for ref, n := range f.inbox.TakeCounts() {
		got[ref] += n
	}
	for i := range 120 {
		if ref := fmt.Sprintf("N-%03d", i); got[ref] != 1 {
			t.Errorf("by the failed poll and the next, %s sent %d times, want 1", ref, got[ref])
		}
	}
	if !failed.Partial || failed.Pages != 1 || !res.Resumed || res.Pages != 2 {
		t.Errorf("failed poll: partial %v after %d pages; next: resumed %v after %d pages; want partial after 1, resumed after 2",
			failed.Partial, failed.Pages, res.Resumed, res.Pages)
	}
	if want := base.Add(129 * time.Second).Add(-time.Second); !res.Cursor.Equal(want) {
		t.Errorf("cursor %v, want %v", res.Cursor, want)
	}
	f.order("LATE", base.Add(200*time.Second))
	if _, err := rt.Poll(c, f.ch); err != nil {
		t.Fatal(err)
	}
	if got, want := f.inbox.TakeCounts(), map[string]int{"N-118": 1, "N-119": 1, "LATE": 1}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the next poll sent %v, want %v (the overlap and the new order)", got, want)
	}
}

// TestPollersRacing: two instances polling one channel at once never poll from the same
// cursor at the same time (one holds the lease, the other does nothing), and every order is
// imported. Two polls from one cursor one after the other are right (a poll that finds only
// what the overlap reads again keeps the cursor), and happen when a loaded machine starts
// the second instance after the first is done.
func TestPollersRacing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	rts := []*connectors.Runtime{f.runtime(time.Second), f.runtime(time.Second)}
	c := ctx(t, 60*time.Second)
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	type run struct{ start, end time.Time }
	polls := map[time.Time][]run{} // the polls from each cursor
	sent := map[string]int{}
	for round := range 4 {
		for i := range 10 {
			f.order(fmt.Sprintf("R%d-%d", round, i), base.Add(time.Duration(round*100+i)*time.Second))
		}
		var wg sync.WaitGroup
		results := make([]connectors.PollResult, len(rts))
		runs := make([]run, len(rts))
		start := make(chan struct{})
		for i, rt := range rts {
			wg.Go(func() {
				<-start
				var err error
				runs[i].start = time.Now()
				if results[i], err = rt.Poll(c, f.ch); err != nil {
					t.Error(err)
				}
				runs[i].end = time.Now()
			})
		}
		close(start)
		wg.Wait()
		for i, r := range results {
			if !r.Busy {
				polls[r.Since] = append(polls[r.Since], runs[i])
			}
		}
		for ref, n := range f.inbox.TakeCounts() {
			sent[ref] += n
		}
	}
	for since, runs := range polls {
		for i, a := range runs {
			for _, b := range runs[i+1:] {
				if a.start.Before(b.end) && b.start.Before(a.end) {
					t.Errorf("two polls from the cursor %v at the same time", since)
				}
			}
		}
	}
	for round := range 4 {
		for i := range 10 {
			if ref := fmt.Sprintf("R%d-%d", round, i); sent[ref] == 0 {
				t.Errorf("%s never sent", ref)
			}
		}
	}
}

// TestTokenCache: sessions of many instances, one after another and at once, make one
// token exchange; a refused token counts, and three refusals in a row disconnect.
func TestTokenCache(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	c := ctx(t, 60*time.Second)
	var wg sync.WaitGroup
	for range 8 {
		rt := f.runtime(time.Second)
		wg.Go(func() {
			if _, err := rt.Poll(c, f.ch); err != nil {
				t.Error(err)
			}
			s, err := rt.Session(c, f.ch)
			if err == nil {
				err = sandbox.GenericConnector.Verify(c, s)
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := f.sb.Calls(sandbox.OpToken); got != 1 {
		t.Errorf("%d token exchanges for 8 instances, want 1", got)
	}
}

// TestRefusalsDisconnect: the third refusal in a row is reported as Disconnected, once the
// channel accepted the credentials again the count starts over.
func TestRefusalsDisconnect(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	rt := f.runtime(time.Second)
	c := ctx(t, 60*time.Second)
	poll := func() string {
		_, err := rt.Poll(c, f.ch)
		var d *connectors.Disconnected
		var ae *connectors.AuthError
		switch {
		case errors.As(err, &d):
			return "disconnected"
		case errors.As(err, &ae):
			return "refused"
		case err != nil:
			return err.Error()
		}
		return "ok"
	}
	var got []string
	f.sb.Refuse(f.seller, true)
	got = append(got, poll(), poll())
	f.sb.Refuse(f.seller, false)
	got = append(got, poll())
	f.sb.Refuse(f.seller, true)
	got = append(got, poll(), poll(), poll())
	want := []string{"refused", "refused", "ok", "refused", "refused", "disconnected"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("polls %v, want %v", got, want)
	}
	// A push of the disconnected channel answers failed with the reason.
	rep := rt.Push(c, []connectors.Message{f.quantity("SKU", 1, 1)})
	if len(rep.Disconnected) != 1 || len(f.inbox.Results()) != 1 || f.inbox.Results()[0]["ok"] != false {
		t.Errorf("push after disconnection: %+v, results %v", rep, f.inbox.Results())
	}
}

// TestVerify: new credentials are verified with the channel without writing anything.
func TestVerify(t *testing.T) {
	t.Parallel()
	f := newFixture(t, map[string]connectors.Limit{sandbox.OpShop: {Rate: 1, Burst: 1}})
	rt := f.runtime(time.Second)
	c := ctx(t, 30*time.Second)
	creds := func(secret string) []byte {
		b, _ := json.Marshal(map[string]string{"client_id": f.seller, "client_secret": secret, "refresh_token": "refresh-value"})
		return b
	}
	ch := f.ch
	ch.Credentials = nil
	far := ch
	far.Endpoints.API = "http://example.com"
	tests := []struct {
		name  string
		ch    connectors.Channel
		creds []byte
		want  string
	}{
		{"accepted", ch, creds("s3cr3t-value"), ""},
		{"refused", ch, creds("wrong-secret-x1"), "channel refused the credentials: invalid_client: unknown client or wrong secret"},
		{"extra field", ch, []byte(`{"client_id":"a","client_secret":"b","refresh_token":"c","x":1}`), "invalid: credentials.x is not a field of this channel type"},
		{"endpoint not loopback", far, creds("s3cr3t-value"), "invalid: endpoints.api must be an https URL unless its host is loopback (localhost, 127.0.0.1 or ::1)"},
	}
	for _, tt := range tests {
		got := ""
		if err := rt.Verify(c, tt.ch, tt.creds); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: Verify = %q, want %q", tt.name, got, tt.want)
		}
	}
	items, err := f.env.Deps.Table.QueryAll(c, store.PK(f.ch.Account, "CONN"))
	if err != nil || len(items) != 0 {
		t.Errorf("Verify wrote %d items (%v)", len(items), err)
	}
}

// TestPushTracking: a shipment's tracking reaches the sandbox's order and is answered ok; on
// an order the channel does not have it is answered failed with the channel's message.
func TestPushTracking(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	f.order("111-222", time.Now())
	rt := f.runtime(time.Second)
	msg := func(order, shipment string) connectors.Message {
		b, _ := json.Marshal(map[string]any{"type": "shipment.tracking", "account_id": f.ch.Account, "channel_uuid": f.ch.UUID,
			"channel_type": "Generic", "display_ref": order, "shipment_id": shipment, "carrier_name": "USPS",
			"carrier_name_given": "usps", "tracking_number": "9400", "tracking_url": nil, "shipping_method": nil,
			"items": []map[string]any{{"order_item_ref": "L1", "sku": "S", "quantity": 2}}, "shipped_at": "2026-11-23T20:00:04Z"})
		return connectors.Message{ID: shipment, Body: string(b), Account: f.ch.Account}
	}
	rep := rt.Push(ctx(t, 30*time.Second), []connectors.Message{msg("111-222", "sh-1"), msg("999", "sh-2"), {ID: "bad", Body: "{}", Account: f.ch.Account}})
	for _, o := range rep.Outcomes[:2] {
		if o.Err != nil || o.Drop != "" || !o.RetryAt.IsZero() {
			t.Errorf("outcome %+v, want done", o)
		}
	}
	if rep.Outcomes[2].Drop == "" {
		t.Errorf("a message without a type was not dropped: %+v", rep.Outcomes[2])
	}
	want := []map[string]any{
		{"type": "shipment.result", "channel_uuid": f.ch.UUID, "shipment_id": "sh-1", "ok": true},
		{"type": "shipment.result", "channel_uuid": f.ch.UUID, "shipment_id": "sh-2", "ok": false,
			"error": "generic: status 404: order 999 not found"},
	}
	if fmt.Sprint(f.inbox.Results()) != fmt.Sprint(want) {
		t.Errorf("results %v\nwant %v", f.inbox.Results(), want)
	}
	if got := f.sb.Fulfillments(f.seller, "111-222"); len(got) != 1 || got[0].TrackingNumber != "9400" || got[0].Carrier != "USPS" {
		t.Errorf("the sandbox's order has %+v", got)
	}
}
