package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// pollerTemplate has a FIFO queue with a 1 s visibility timeout and a DLQ after 2
// receives, consumed by one function reporting partial batch failures.
const pollerTemplate = `
Resources:
  ConsumerFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: functions/consumer/
      Timeout: 1
      Events:
        Work:
          Type: SQS
          Properties:
            Queue: !GetAtt Work.Arn
            BatchSize: 10
            FunctionResponseTypes: [ReportBatchItemFailures]
  Work:
    Type: AWS::SQS::Queue
    Properties:
      FifoQueue: true
      ContentBasedDeduplication: true
      VisibilityTimeout: 1
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt WorkDLQ.Arn
        maxReceiveCount: 2
  WorkDLQ:
    Type: AWS::SQS::Queue
    Properties:
      FifoQueue: true
`

// consumer is a fake SQS handler; behave decides per message body what happens.
type consumer struct {
	mu       sync.Mutex
	received map[string][]events.SQSMessage
	order    []string                              // bodies in delivery order
	behave   func(body string, attempt int) string // "ok", "fail" (item failure), "error", "bogus"
}

func (c *consumer) handle(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var resp events.SQSEventResponse
	for _, m := range ev.Records {
		c.received[m.Body] = append(c.received[m.Body], m)
		c.order = append(c.order, m.Body)
		switch c.behave(m.Body, len(c.received[m.Body])) {
		case "fail":
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
		case "error":
			return events.SQSEventResponse{}, errors.New("handler error")
		case "panic":
			panic("handler panic")
		case "bogus":
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: "not-a-message-id"})
		}
	}
	return resp, nil
}

func (c *consumer) attempts(body string) []events.SQSMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]events.SQSMessage(nil), c.received[body]...)
}

func startPollers(t *testing.T, stackName string, c *consumer) (*Stack, *Pollers) {
	t.Helper()
	return startPollersWith(t, pollerTemplate, stackName, c, PollerOptions{})
}

func startPollersWith(t *testing.T, tpl, stackName string, c *consumer, opts PollerOptions) (*Stack, *Pollers) {
	t.Helper()
	s := provisionFromYAML(t, tpl, stackName)
	p, err := NewPollers(s, func(name string) (any, error) {
		if name != "consumer" {
			return nil, fmt.Errorf("no handler %s", name)
		}
		return SQSHandler(c.handle), nil
	}, PollerOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), FailedVisibility: opts.FailedVisibility,
		OwnVisibility: opts.OwnVisibility})
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	t.Cleanup(p.Stop)
	return s, p
}

func send(t *testing.T, s *Stack, queue, group, body string) {
	t.Helper()
	_, err := s.SQS.SendMessage(context.Background(), &sqs.SendMessageInput{
		QueueUrl: aws.String(s.Queues[queue].URL), MessageBody: aws.String(body), MessageGroupId: aws.String(group),
		MessageAttributes: map[string]sqstypes.MessageAttributeValue{"kind": {DataType: aws.String("String"), StringValue: aws.String("test")}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func drain(t *testing.T, p *Pollers) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Drain(ctx); err != nil {
		t.Fatal(err)
	}
}

func dlqBodies(t *testing.T, s *Stack) []string {
	t.Helper()
	out, err := s.SQS.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
		QueueUrl: aws.String(s.Queues["WorkDLQ"].URL), MaxNumberOfMessages: 10, WaitTimeSeconds: 0,
	})
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, m := range out.Messages {
		bodies = append(bodies, aws.ToString(m.Body))
	}
	return bodies
}

func TestPollerPartialBatchFailure(t *testing.T) {
	t.Parallel()
	c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(body string, attempt int) string {
		switch {
		case body == "fail-once" && attempt == 1:
			return "fail"
		case body == "always-fail":
			return "fail"
		}
		return "ok"
	}}
	s, p := startPollers(t, "partial", c)
	send(t, s, "Work", "g1", "ok")
	send(t, s, "Work", "g2", "fail-once")
	send(t, s, "Work", "g3", "always-fail")
	drain(t, p)

	if got := c.attempts("ok"); len(got) != 1 {
		t.Errorf("ok delivered %d times, want 1", len(got))
	} else {
		m := got[0]
		if m.EventSourceARN != s.Queues["Work"].ARN || m.EventSource != "aws:sqs" || m.AWSRegion != "us-east-1" ||
			m.Attributes["MessageGroupId"] != "g1" || m.Attributes["ApproximateReceiveCount"] != "1" || m.ReceiptHandle == "" || m.MessageId == "" {
			t.Errorf("record = %+v", m)
		}
		if v := m.MessageAttributes["kind"]; v.StringValue == nil || *v.StringValue != "test" || v.DataType != "String" {
			t.Errorf("message attributes = %+v", m.MessageAttributes)
		}
	}
	retried := c.attempts("fail-once")
	if len(retried) != 2 || retried[1].Attributes["ApproximateReceiveCount"] != "2" {
		t.Errorf("fail-once delivered %d times (want 2, the second with ApproximateReceiveCount 2)", len(retried))
	}
	if got := c.attempts("always-fail"); len(got) != 2 {
		t.Errorf("always-fail delivered %d times, want maxReceiveCount 2", len(got))
	}
	if got := dlqBodies(t, s); len(got) != 1 || got[0] != "always-fail" {
		t.Errorf("DLQ holds %v, want [always-fail]", got)
	}
}

func TestPollerHandlerErrorRetriesWholeBatch(t *testing.T) {
	t.Parallel()
	c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(body string, attempt int) string {
		switch {
		case attempt > 1:
			return "ok"
		case body == "error":
			return "error"
		case body == "panic":
			return "panic"
		case body == "bogus":
			return "bogus"
		}
		return "ok"
	}}
	s, p := startPollers(t, "errors", c)
	// Each fails its first batch in its own way; the whole batch then comes back.
	for _, body := range []string{"error", "panic", "bogus"} {
		send(t, s, "Work", "g-"+body, body)
		drain(t, p) // one at a time, so a failing batch holds only this message
	}
	for _, body := range []string{"error", "panic", "bogus"} {
		if got := c.attempts(body); len(got) != 2 {
			t.Errorf("%s delivered %d times, want 2 (failed batch retried once)", body, len(got))
		}
	}
	if got := dlqBodies(t, s); len(got) != 0 {
		t.Errorf("DLQ holds %v", got)
	}
}

func TestPollerBatchesAndStop(t *testing.T) {
	t.Parallel()
	c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(string, int) string { return "ok" }}
	s, p := startPollers(t, "batches", c)
	const n = 25
	for i := 0; i < n; i++ {
		send(t, s, "Work", "g"+strconv.Itoa(i%5), "m"+strconv.Itoa(i))
	}
	drain(t, p)
	for i := 0; i < n; i++ {
		if got := c.attempts("m" + strconv.Itoa(i)); len(got) != 1 {
			t.Errorf("m%d delivered %d times", i, len(got))
		}
	}
	// FIFO order within each group.
	c.mu.Lock()
	last := map[int]int{}
	for _, body := range c.order {
		i, _ := strconv.Atoi(body[1:])
		if prev, ok := last[i%5]; ok && prev > i {
			t.Errorf("group g%d: m%d delivered after m%d", i%5, i, prev)
		}
		last[i%5] = i
	}
	c.mu.Unlock()
	start := time.Now()
	p.Stop()
	p.Stop() // idempotent
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Stop took %v", d)
	}
}

func TestNewPollersErrors(t *testing.T) {
	t.Parallel()
	s := provisionFromYAML(t, pollerTemplate, "pollererr")
	if _, err := NewPollers(s, func(string) (any, error) { return echo("x"), nil }, PollerOptions{}); err == nil {
		t.Error("an HTTP handler was accepted for an SQS event")
	}
	if _, err := NewPollers(s, func(string) (any, error) { return nil, errors.New("none") }, PollerOptions{}); err == nil {
		t.Error("a missing handler was accepted")
	}
}

// TestPollerFailedVisibility checks that FailedVisibility brings a failed message back
// long before the queue's own visibility timeout.
func TestPollerFailedVisibility(t *testing.T) {
	t.Parallel()
	c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(_ string, attempt int) string {
		if attempt == 1 {
			return "fail"
		}
		return "ok"
	}}
	tpl := strings.Replace(pollerTemplate, "VisibilityTimeout: 1", "VisibilityTimeout: 120", 1)
	s, p := startPollersWith(t, tpl, "fastretry", c, PollerOptions{FailedVisibility: time.Second})
	send(t, s, "Work", "g", "retry-me")
	start := time.Now()
	drain(t, p)
	if got := c.attempts("retry-me"); len(got) != 2 {
		t.Errorf("delivered %d times, want 2", len(got))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("retry took %v, want about 1 s", d)
	}
}

// TestPollerOwnVisibility: FailedVisibility leaves alone the messages a function in
// OwnVisibility reports failed (the function sets their visibility; this one set none, so
// the queue's 120 s hold), but still brings back the batch of an invocation that failed;
// an OwnVisibility naming no SQS function is refused.
func TestPollerOwnVisibility(t *testing.T) {
	t.Parallel()
	tpl := strings.Replace(pollerTemplate, "VisibilityTimeout: 1", "VisibilityTimeout: 120", 1)
	tests := []struct {
		name, behave string
		want         int // deliveries within 4 s
	}{
		{"item failure: the function's visibility", "fail", 1},
		{"invocation failed: FailedVisibility", "error", 2},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(_ string, attempt int) string {
				if attempt == 1 {
					return tt.behave
				}
				return "ok"
			}}
			s, _ := startPollersWith(t, tpl, fmt.Sprintf("ownvis%d", i), c,
				PollerOptions{FailedVisibility: time.Second, OwnVisibility: []string{"ConsumerFunction"}})
			send(t, s, "Work", "g", "m")
			end := time.Now().Add(4 * time.Second)
			for time.Now().Before(end) && len(c.attempts("m")) < tt.want {
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(time.Until(end))
			if got := len(c.attempts("m")); got != tt.want {
				t.Errorf("delivered %d times within 4 s, want %d", got, tt.want)
			}
		})
	}
	s := provisionFromYAML(t, pollerTemplate, "ownvisbad")
	handler := func(string) (any, error) { return SQSHandler((&consumer{}).handle), nil }
	if _, err := NewPollers(s, handler, PollerOptions{OwnVisibility: []string{"NoSuchFunction"}}); err == nil {
		t.Error("an OwnVisibility naming no function was accepted")
	}
}

// TestPollerTwoQueues: one function with two SQS event sources, a FIFO queue and a standard
// queue with a per-message delay, gets the messages of both, and Drain waits for the delayed
// one.
func TestPollerTwoQueues(t *testing.T) {
	t.Parallel()
	c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(string, int) string { return "ok" }}
	s, p := startPollersWith(t, string(testdata(t, "two-queues.yaml")), "twoqueues", c, PollerOptions{})
	run := strconv.FormatInt(time.Now().UnixNano(), 36) // bodies differ from run to run (content-based deduplication)
	start := time.Now()
	later := "later-" + run
	_, err := s.SQS.SendMessage(context.Background(), &sqs.SendMessageInput{
		QueueUrl: aws.String(s.Queues["Later"].URL), MessageBody: aws.String(later), DelaySeconds: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	var ordered []string
	for i := 0; i < 3; i++ {
		body := fmt.Sprintf("ordered-%d-%s", i, run)
		ordered = append(ordered, body)
		send(t, s, "Ordered", "g", body)
	}
	drain(t, p)
	if d := time.Since(start); d < 1500*time.Millisecond {
		t.Errorf("Drain returned after %v, before the delayed message was visible", d)
	}
	tests := []struct {
		body, queue string
	}{
		{later, "Later"}, {ordered[0], "Ordered"}, {ordered[1], "Ordered"}, {ordered[2], "Ordered"},
	}
	for _, tc := range tests {
		got := c.attempts(tc.body)
		if len(got) != 1 || got[0].EventSourceARN != s.Queues[tc.queue].ARN {
			t.Errorf("%s: delivered %d times (%+v), want once from %s", tc.body, len(got), got, tc.queue)
		}
	}
	c.mu.Lock()
	var got []string
	for _, b := range c.order {
		if strings.HasPrefix(b, "ordered-") {
			got = append(got, b)
		}
	}
	c.mu.Unlock()
	if !slices.Equal(got, ordered) {
		t.Errorf("FIFO order %v, want %v", got, ordered)
	}
}

// TestPollerSlowBatchHoldsUpNothing: on a standard queue, a batch whose handler hangs does
// not hold up the messages sent after it (Lambda runs concurrent invocations), as a webhook
// receiver hanging until its timeout must not delay other deliveries.
func TestPollerSlowBatchHoldsUpNothing(t *testing.T) {
	t.Parallel()
	release, hung := make(chan struct{}), make(chan struct{}, 10)
	fast := make(chan time.Time, 10)
	handle := func(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		for _, m := range ev.Records {
			if m.Body == "slow" {
				hung <- struct{}{}
				select {
				case <-release:
				case <-time.After(10 * time.Second):
				}
				continue
			}
			fast <- time.Now()
		}
		return events.SQSEventResponse{}, nil
	}
	s := provisionFromYAML(t, string(testdata(t, "two-queues.yaml")), "slowbatch")
	p, err := NewPollers(s, func(string) (any, error) { return SQSHandler(handle), nil },
		PollerOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	t.Cleanup(p.Stop)
	t.Cleanup(func() { close(release) })
	sendTo := func(body string) {
		if _, err := s.SQS.SendMessage(context.Background(), &sqs.SendMessageInput{
			QueueUrl: aws.String(s.Queues["Later"].URL), MessageBody: aws.String(body),
		}); err != nil {
			t.Fatal(err)
		}
	}
	sendTo("slow")
	select {
	case <-hung:
	case <-time.After(5 * time.Second):
		t.Fatal("the slow message was not received within 5 s")
	}
	sent := time.Now()
	sendTo("fast")
	select {
	case at := <-fast:
		if d := at.Sub(sent); d > time.Second { // the hung invocation runs 2 s, the function's timeout
			t.Errorf("the message after the hung batch was handled after %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Error("the message after the hung batch was not handled while it hung (5 s)")
	}
}
