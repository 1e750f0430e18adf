package gateway

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/syncbuf"
)

// TestPollerAbandonsUnansweredReceive: a receive the SQS endpoint never answers is abandoned
// after its long-poll wait and receiveTimeout, logged as a failed receive, and tried again,
// so the queue's receive loop does not stop for good.
func TestPollerAbandonsUnansweredReceive(t *testing.T) {
	t.Parallel()
	s := provisionFromYAML(t, pollerTemplate, "hangingreceive")
	var hits atomic.Int32
	done := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		hits.Add(1)
		<-done
	}))
	t.Cleanup(func() { close(done); hang.Close() })
	hs := *s
	hs.SQS = sqs.New(sqs.Options{Region: s.Region, Credentials: s.SQS.Options().Credentials,
		BaseEndpoint: aws.String(hang.URL), RetryMaxAttempts: 1})
	var logs syncbuf.Buffer
	c := &consumer{received: map[string][]events.SQSMessage{}, behave: func(string, int) string { return "ok" }}
	p, err := NewPollers(&hs, func(string) (any, error) { return SQSHandler(c.handle), nil },
		PollerOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	t.Cleanup(p.Stop)
	end := time.Now().Add(3 * receiveTimeout)
	for time.Now().Before(end) && (hits.Load() < 2 || !strings.Contains(logs.String(), "sqs receive failed")) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := hits.Load(); got < 2 || !strings.Contains(logs.String(), "sqs receive failed") {
		t.Errorf("%d receives, logs %q: want the unanswered one abandoned, logged and tried again", got, logs.String())
	}
}
