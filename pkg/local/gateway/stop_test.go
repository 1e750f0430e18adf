package gateway

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// TestPollerStopBounded: Stop cuts a batch still under way after StopGrace (its function's
// context ends) instead of waiting for the function's timeout, as a poll waiting minutes for
// its channel would make Ctrl-C of make run wait. It needs the emulators (skipped with
// -short, provisionFromYAML).
func TestPollerStopBounded(t *testing.T) {
	t.Parallel()
	s := provisionFromYAML(t, strings.Replace(pollerTemplate, "Timeout: 1", "Timeout: 600", 1), "stopbound")
	started, ended := make(chan struct{}), make(chan error, 1)
	p, err := NewPollers(s, func(name string) (any, error) {
		if name != "consumer" {
			return nil, fmt.Errorf("no handler %s", name)
		}
		return SQSHandler(func(ctx context.Context, _ events.SQSEvent) (events.SQSEventResponse, error) {
			close(started)
			<-ctx.Done()
			ended <- ctx.Err()
			return events.SQSEventResponse{}, ctx.Err()
		}), nil
	}, PollerOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	send(t, s, "Work", "g", "slow")
	<-started
	p.Stop()
	if err := <-ended; err != context.Canceled {
		t.Errorf("the batch ended with %v, want its context cancelled", err)
	}
}
