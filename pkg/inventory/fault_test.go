package inventory_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"

	"github.com/multisell/multisell/pkg/queue"
)

// message encodes an adjustment of the fixture's account as PUT or PATCH
// would queue it.
func (f *fixture) message(method string, items ...inventory.Item) (id, msgBody string) {
	f.t.Helper()
	id = inventory.NewRequestID(f.acct.ID)
	msgBody, err := queue.Encode(inventory.Adjustment{RequestID: id, Account: f.acct.ID, Method: method, Items: items})
	if err != nil {
		f.t.Fatal(err)
	}
	return id, msgBody
}

// send puts a message body on the adjustments queue in the fixture's group.
func (f *fixture) send(msgBody, dedup string) {
	f.t.Helper()
	_, err := f.env.Deps.SQS.SendMessage(context.Background(), &sqs.SendMessageInput{
		QueueUrl: aws.String(f.env.Config.AdjustmentsQueueURL), MessageBody: aws.String(msgBody),
		MessageGroupId: aws.String(f.acct.ID), MessageDeduplicationId: aws.String(dedup),
	})
	if err != nil {
		f.t.Fatal(err)
	}
}

func onHand(sku, wh string, v int64) inventory.Item {
	return inventory.Item{SKU: sku, Warehouse: wh, OnHand: &v}
}

// TestRedeliveryAppliesOnce delivers the same message again after a later
// adjustment: the redelivery changes nothing.
func TestRedeliveryAppliesOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("B", w, 0))
	id1, m1 := f.message(inventory.MethodPut, onHand("A", w, 5), onHand("B", w, 1))
	id2, m2 := f.message(inventory.MethodPatch, onHand("A", w, 7))
	f.send(m1, id1)
	f.send(m2, id2)
	f.send(m1, id1+"-again") // the same message body, delivered a second time
	f.applied(f.adjust(http.MethodPatch, body(record("B", w, 2))))
	check(t, f.get("A", w), 7, 0, 7)
	st := f.status(id1)
	if r := result(t, st, "A", w); r.Result != inventory.ResultCreated || *r.OnHand != 5 {
		t.Errorf("first delivery's result changed: %+v", r)
	}
}

// TestRedeliveryAfterPartialFailure delivers a message whose first
// delivery failed after some items (here: a record DynamoDB refuses to
// update): the redelivery applies the rest and reports the earlier items
// from their records, each applied exactly once.
func TestRedeliveryAfterPartialFailure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 1), record("C", w, 1))
	corrupt(t, f, "C", w, store.S("broken"))
	id, m := f.message(inventory.MethodPut, onHand("A", w, 5), onHand("N", w, 3), onHand("C", w, 4))
	svc := f.consumer(nil)
	ev := events.SQSEvent{Records: []events.SQSMessage{{MessageId: "m1", Body: m}}}
	resp, err := svc.Consume(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 1 {
		t.Fatalf("first delivery: %+v %v", resp, err)
	}
	check(t, f.get("A", w), 5, 0, 5)
	check(t, f.get("N", w), 3, 0, 3)
	// Meanwhile an order reserves at A; the redelivery must not undo it.
	if err := f.reserve("A", w, 2); err != nil {
		t.Fatal(err)
	}
	corrupt(t, f, "C", w, &types.AttributeValueMemberN{Value: "0"})
	resp, err = svc.Consume(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("redelivery: %+v %v", resp, err)
	}
	check(t, f.get("A", w), 5, 2, 3)
	check(t, f.get("N", w), 3, 0, 3)
	check(t, f.get("C", w), 4, 0, 4)
	st := f.status(id)
	want := []string{inventory.ResultApplied, inventory.ResultCreated, inventory.ResultApplied}
	for i, r := range st.Items {
		if r.Result != want[i] {
			t.Errorf("item %d: %+v, want %s", i, r, want[i])
		}
	}
}

// corrupt makes a record unusable (reserved is text), so that applying an
// adjustment to it fails in DynamoDB; repair undoes it.
func corrupt(t *testing.T, f *fixture, sku, wh string, reserved types.AttributeValue) {
	t.Helper()
	tb := f.env.Deps.Table
	_, err := tb.DB.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName: tb.TableName(), Key: inventory.Key(f.acct.ID, sku, wh),
		UpdateExpression:          aws.String("SET #reserved = :r"),
		ExpressionAttributeNames:  store.Names("#reserved"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":r": reserved},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFailureMidMessage: an item that fails in DynamoDB fails its message
// part way; each item is applied or not (never half), the message comes
// back, and once the fault is gone the retry completes it exactly once.
func TestFailureMidMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 1), record("B", w, 1), record("C", w, 1))
	corrupt(t, f, "B", w, store.S("broken"))
	id := f.adjust(http.MethodPatch, body(record("A", w, 10), record("B", w, 20), record("C", w, 30)))
	deadline := time.Now().Add(20 * time.Second)
	for f.get("A", w).OnHand != 10 {
		if time.Now().After(deadline) {
			t.Fatal("first item never applied")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if st := f.status(id); st.Status != inventory.StatusQueued {
		t.Errorf("status with a failing item: %+v", st)
	}
	// Items apply concurrently: C may be applied already or not, but whole.
	if c := f.get("C", w); c.OnHand != 1 && c.OnHand != 30 {
		t.Errorf("C half applied: %+v", c)
	}
	// A reservation meanwhile must survive the retry of A.
	if err := f.reserve("A", w, 4); err != nil {
		t.Fatal(err)
	}
	corrupt(t, f, "B", w, &types.AttributeValueMemberN{Value: "0"})
	st := f.applied(id)
	check(t, f.get("A", w), 10, 4, 6)
	check(t, f.get("B", w), 20, 0, 20)
	check(t, f.get("C", w), 30, 0, 30)
	for _, r := range st.Items {
		if r.Result != inventory.ResultApplied {
			t.Errorf("%+v", r)
		}
	}
}

// TestBatchFailureReportsTheRest: in one batch, a failing message and every
// message after it are reported as failures; those before are applied. A
// message that can never be applied is rejected, not failed: it holds up
// nothing after it.
func TestBatchFailureReportsTheRest(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("B", w, 1))
	corrupt(t, f, "B", w, store.S("broken"))
	id1, m1 := f.message(inventory.MethodPut, onHand("A", w, 1))
	_, m3 := f.message(inventory.MethodPut, onHand("B", w, 3))
	_, m4 := f.message(inventory.MethodPut, onHand("C", w, 4))
	svc := f.consumer(nil)
	resp, err := svc.Consume(context.Background(), events.SQSEvent{Records: []events.SQSMessage{
		{MessageId: "1", Body: m1}, {MessageId: "2", Body: "poison for " + f.acct.ID}, {MessageId: "3", Body: m3}, {MessageId: "4", Body: m4},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, bf := range resp.BatchItemFailures {
		failed = append(failed, bf.ItemIdentifier)
	}
	if got, want := strings.Join(failed, ","), "3,4"; got != want {
		t.Errorf("failures %v, want %v", got, want)
	}
	if st := f.status(id1); st.Status != inventory.StatusApplied {
		t.Errorf("first message: %+v", st)
	}
	if got := f.list("sku=C"); len(got) != 0 {
		t.Errorf("message after the failure applied: %+v", got)
	}
	f.fromDLQ("poison for " + f.acct.ID)
}

// TestPoisonMessageToDLQ: a message that can never be applied goes to the
// dead-letter queue at once, with the reason; when it names one of the
// account's requests, that request is failed with the reason.
func TestPoisonMessageToDLQ(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	poison := "poison for " + f.acct.ID
	f.send(poison, "poison-"+f.acct.ID)
	if reason := f.fromDLQ(poison); !strings.Contains(reason, "decode message") {
		t.Errorf("reason %q, want the decoding error", reason)
	}
	// A recorded request whose message is unreadable (an item without a
	// quantity): failed, with the reason.
	id := f.adjust(http.MethodPut, body(record("A", w, 1)))
	bad, err := queue.Encode(inventory.Adjustment{RequestID: id, Account: f.acct.ID, Method: inventory.MethodPut,
		Items: []inventory.Item{{SKU: "A", Warehouse: w}}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.consumer(nil).Consume(context.Background(), events.SQSEvent{Records: []events.SQSMessage{{MessageId: "bad-" + id, Body: bad}}})
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("rejection: %+v %v", resp, err)
	}
	f.fromDLQ(bad)
	deadline := time.Now().Add(20 * time.Second)
	for st := f.status(id); ; st = f.status(id) {
		if st.Status == inventory.StatusFailed && strings.Contains(st.Reason, "one quantity") {
			break // unless the real message came first: then it is applied, and stays so
		}
		if st.Status == inventory.StatusApplied || time.Now().After(deadline) {
			if st.Status != inventory.StatusApplied {
				t.Fatalf("status %+v, want failed with the reason", st)
			}
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// fromDLQ waits for the message body on the adjustments dead-letter queue,
// deletes it and returns its reason attribute.
func (f *fixture) fromDLQ(msgBody string) string {
	f.t.Helper()
	dlq := f.env.Config.AdjustmentsDLQURL
	ctx := context.Background()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		out, err := f.env.Deps.SQS.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(dlq), MaxNumberOfMessages: 10, WaitTimeSeconds: 1, VisibilityTimeout: 1,
			MessageAttributeNames: []string{"All"},
		})
		if err != nil {
			f.t.Fatal(err)
		}
		for _, m := range out.Messages {
			if aws.ToString(m.Body) != msgBody {
				continue
			}
			if _, err := f.env.Deps.SQS.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(dlq), ReceiptHandle: m.ReceiptHandle}); err != nil {
				f.t.Fatal(err)
			}
			reason := aws.ToString(m.MessageAttributes["reason"].StringValue)
			if reason == "" {
				f.t.Errorf("dead letter %q has no reason", msgBody)
			}
			return reason
		}
	}
	f.t.Fatalf("%q never reached the dead-letter queue", msgBody)
	return ""
}

// failingListener fails its first calls, then records what it is told.
type failingListener struct {
	mu       sync.Mutex
	failures int
	calls    [][]inventory.SKUWarehouse
}

func (l *failingListener) StockAvailable(_ context.Context, _ string, recs []inventory.SKUWarehouse) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failures > 0 {
		l.failures--
		return errors.New("allocation unavailable")
	}
	l.calls = append(l.calls, recs)
	return nil
}

// TestListenerFailureRetries: a stock listener error fails the message
// after the adjustment is applied; the retry applies nothing again but
// tells the listener.
func TestListenerFailureRetries(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 1))
	l := &failingListener{failures: 1}
	svc := f.consumer(l)
	_, m := f.message(inventory.MethodPatch, onHand("A", w, 9), onHand("Missing", w, 1))
	ev := events.SQSEvent{Records: []events.SQSMessage{{MessageId: "1", Body: m}}}
	resp, err := svc.Consume(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 1 {
		t.Fatalf("first delivery: %+v %v", resp, err)
	}
	check(t, f.get("A", w), 9, 0, 9)
	if err := f.reserve("A", w, 2); err != nil {
		t.Fatal(err)
	}
	resp, err = svc.Consume(context.Background(), ev)
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("retry: %+v %v", resp, err)
	}
	check(t, f.get("A", w), 9, 2, 7)
	if len(l.calls) != 1 || len(l.calls[0]) != 1 || l.calls[0][0] != (inventory.SKUWarehouse{SKU: "A", Warehouse: w}) {
		t.Errorf("listener calls %+v", l.calls)
	}
	// POST tells the listener about new records; its error does not fail
	// the call, which has created them.
	l.failures = 1
	for _, sku := range []string{"B", "C"} {
		req := &api.Request{Account: api.Account{ID: f.acct.ID}}
		req.Body = body(record(sku, w, 1))
		if r, err := svc.Create(context.Background(), req); err != nil || r.Status != http.StatusCreated {
			t.Fatalf("POST %s: %+v %v", sku, r, err)
		}
	}
	if len(l.calls) != 2 || l.calls[1][0].SKU != "C" {
		t.Errorf("listener calls %+v", l.calls)
	}
	check(t, f.get("B", w), 1, 0, 1)
}

// TestSupersededNotTold: a request consumed after a newer one has set its
// records writes nothing (skipped_superseded) and so tells the stock
// listener nothing and counts nothing applied.
func TestSupersededNotTold(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := f.warehouse("W")
	f.create(record("A", w, 1))
	l := &failingListener{}
	svc := f.consumer(l)
	_, older := f.message(inventory.MethodPut, onHand("A", w, 5))
	_, newer := f.message(inventory.MethodPut, onHand("A", w, 7))
	for i, m := range []string{newer, older} {
		ev := events.SQSEvent{Records: []events.SQSMessage{{MessageId: fmt.Sprint(i), Body: m}}}
		if resp, err := svc.Consume(context.Background(), ev); err != nil || len(resp.BatchItemFailures) != 0 {
			t.Fatalf("message %d: %+v %v", i, resp, err)
		}
	}
	check(t, f.get("A", w), 7, 0, 7)
	got, want := l.calls, [][]inventory.SKUWarehouse{{{SKU: "A", Warehouse: w}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("listener calls %+v, want %+v (the newer request's only)", got, want)
	}
}
