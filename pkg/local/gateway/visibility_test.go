package gateway

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/local/template"
	"github.com/multisell/multisell/pkg/syncbuf"
)

func TestReceiveVisibility(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name             string
		timeout, visible time.Duration
		want             time.Duration
	}{
		{"the function's timeout and the margin", time.Minute, 6 * time.Minute, time.Minute + receiveMargin},
		{"the queue's timeout when shorter", time.Minute, 30 * time.Second, 30 * time.Second},
		{"Lambda's default timeout", 0, 6 * time.Minute, 3*time.Second + receiveMargin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := &source{fn: &template.Function{Timeout: tt.timeout}, visibility: tt.visible}
			if got := receiveVisibility(s); got != tt.want {
				t.Errorf("receiveVisibility = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPollerLostReceiveComesBack: when the answer of a receive that took a message is lost
// on the way back, the failure is logged (not retried behind the poller's back) and the
// message is delivered once its receive's visibility ends, not after the queue's 5 minutes.
func TestPollerLostReceiveComesBack(t *testing.T) {
	t.Parallel()
	s := provisionFromYAML(t, string(testdata(t, "long-visibility.yaml")), "lostreceive")
	target, err := url.Parse(aws.ToString(s.SQS.Options().BaseEndpoint))
	if err != nil {
		t.Fatal(err)
	}
	var dropped atomic.Bool
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"Messages"`)) && dropped.CompareAndSwap(false, true) {
			panic(http.ErrAbortHandler) // the connection breaks with the answer unsent
		}
		return nil
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	ls := *s
	ls.SQS = sqs.New(sqs.Options{Region: s.Region, Credentials: s.SQS.Options().Credentials, BaseEndpoint: aws.String(front.URL)})
	var logs syncbuf.Buffer
	got := make(chan time.Time, 10)
	handle := func(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		for range ev.Records {
			got <- time.Now()
		}
		return events.SQSEventResponse{}, nil
	}
	p, err := NewPollers(&ls, func(string) (any, error) { return SQSHandler(handle), nil },
		PollerOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	t.Cleanup(p.Stop)
	sent := time.Now()
	if _, err := s.SQS.SendMessage(context.Background(), &sqs.SendMessageInput{
		QueueUrl: aws.String(s.Queues["Work"].URL), MessageBody: aws.String("m"), MessageGroupId: aws.String("g"),
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case at := <-got:
		if !dropped.Load() {
			t.Fatal("the message was delivered without its first receive's answer being lost")
		}
		if d := at.Sub(sent); d < 10*time.Second {
			t.Errorf("delivered after %v: the lost receive's answer was retried, want it back after its visibility", d)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the message taken by the lost receive did not come back within 60 s")
	}
	if !strings.Contains(logs.String(), "sqs receive failed") {
		t.Errorf("logs %q: want the lost receive logged", logs.String())
	}
}

// TestPollerFailedKeepsQueueVisibility: a message its function failed stays invisible for the
// queue's visibility timeout from its receive, as Lambda leaves it, though the receive asked
// for less.
func TestPollerFailedKeepsQueueVisibility(t *testing.T) {
	t.Parallel()
	s := provisionFromYAML(t, string(testdata(t, "long-visibility.yaml")), "failedvisibility")
	c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(string, int) string { return "fail" }}
	p, err := NewPollers(s, func(string) (any, error) { return SQSHandler(c.handle), nil },
		PollerOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	t.Cleanup(p.Stop)
	url := s.Queues["Work"].URL
	if _, err := s.SQS.SendMessage(context.Background(), &sqs.SendMessageInput{
		QueueUrl: aws.String(url), MessageBody: aws.String("m"), MessageGroupId: aws.String("g"),
	}); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); len(c.attempts("m")) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the message was not received within 10 s")
		}
	}
	time.Sleep(receiveVisibility(p.sources[0]) + 3*time.Second)
	if got := len(c.attempts("m")); got != 1 {
		t.Errorf("%d attempts past the receive's visibility, want 1 (the queue's 5 minutes hold it)", got)
	}
	out, err := s.SQS.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{
		QueueUrl: aws.String(url), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Attributes[string(sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible)]; got != "1" {
		t.Errorf("%s messages in flight, want the failed one", got)
	}
}
