package inventory_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/queue"
)

// TestLostMessageResent: a request recorded whose message was lost is sent
// again by the sweep and applied, except on a record a request accepted
// after it has set already (skipped_superseded: a late copy never writes
// older stock over newer).
func TestLostMessageResent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	ctx := context.Background()
	lost := inventory.Adjustment{RequestID: inventory.NewRequestID(f.acct.ID), Account: f.acct.ID, Method: inventory.MethodPut,
		Items: []inventory.Item{onHand("X", w, 5), onHand("Y", w, 6)}}
	if err := inventory.RecordRequest(ctx, f.env.Deps.Table, lost, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st := f.status(lost.RequestID); st.Status != inventory.StatusQueued || len(st.Items) != 0 {
		t.Fatalf("recorded request: %+v", st)
	}
	newer := f.applied(f.adjust(http.MethodPut, body(record("X", w, 9))))
	if newer.Items[0].Result != inventory.ResultCreated {
		t.Fatalf("newer request: %+v", newer)
	}
	svc := f.consumer(nil).Service
	if n, err := svc.Resend(ctx, time.Now()); err != nil || n < 1 {
		t.Fatalf("Resend = %d, %v", n, err)
	}
	st := f.applied(lost.RequestID)
	if got, want := result(t, st, "X", w).Result, inventory.ResultSuperseded; got != want {
		t.Errorf("X: %s, want %s", got, want)
	}
	if got, want := result(t, st, "Y", w).Result, inventory.ResultCreated; got != want {
		t.Errorf("Y: %s, want %s", got, want)
	}
	check(t, f.get("X", w), 9, 0, 9)
	check(t, f.get("Y", w), 6, 0, 6)
	// Applied: the sweep sends it no more.
	if n, err := svc.Resend(ctx, time.Now()); err != nil {
		t.Fatal(err)
	} else if again := f.status(lost.RequestID); again.Status != inventory.StatusApplied {
		t.Errorf("after a second sweep (%d sent): %+v", n, again)
	}
}

// TestQueueRefused: when the queue does not take the message, PUT answers
// 503 and the request is failed with the reason, never left queued; a
// request the consumer has claimed can no longer be given up. Not parallel:
// TestLostMessageResent's sweep would send this request while the dead
// queue is being retried, and the consumer's claim would rightly win.
func TestQueueRefused(t *testing.T) {
	f := newFixture(t)
	w := f.warehouse("W")
	ctx := context.Background()
	svc := f.consumer(nil).Service
	svc.Adjustments = queue.Sender{URL: "http://127.0.0.1:1/000000000000/nowhere.fifo", Client: sqs.New(sqs.Options{
		Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:1"), Credentials: f.env.Deps.SQS.Options().Credentials,
	})}
	_, err := svc.Enqueue(ctx, f.acct.ID, inventory.MethodPut, []inventory.Item{onHand("A", w, 1)})
	e, ok := errs.As(err)
	if !ok || e.Kind != errs.KindUnavailable || e.OutcomeUnknown || e.RequestID == "" {
		t.Fatalf("Enqueue to a dead queue = %v, want unavailable with a known outcome", err)
	}
	st := f.status(e.RequestID)
	if st.Status != inventory.StatusFailed || st.Reason != inventory.QueueRefusedReason {
		t.Errorf("given up request: %+v", st)
	}
	if got := f.list("sku=A"); len(got) != 0 {
		t.Errorf("a refused request applied: %+v", got)
	}
	claimed := inventory.Adjustment{RequestID: inventory.NewRequestID(f.acct.ID), Account: f.acct.ID, Method: inventory.MethodPut,
		Items: []inventory.Item{onHand("B", w, 1)}}
	if err := inventory.RecordRequest(ctx, f.env.Deps.Table, claimed, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, done, recorded, err := inventory.Claim(ctx, f.env.Deps.Table, f.acct.ID, claimed.RequestID, time.Now()); err != nil || done || !recorded {
		t.Fatalf("claim = done %v, recorded %v, %v", done, recorded, err)
	}
	if gaveUp, err := inventory.GiveUp(ctx, f.env.Deps.Table, f.acct.ID, claimed.RequestID); err != nil || gaveUp {
		t.Errorf("give up a claimed request = %v, %v; want false (it is being applied)", gaveUp, err)
	}
}
