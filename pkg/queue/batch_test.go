package queue

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

func TestFIFOBatch(t *testing.T) {
	t.Parallel()
	ev := events.SQSEvent{Records: []events.SQSMessage{{MessageId: "1"}, {MessageId: "2"}, {MessageId: "3"}, {MessageId: "4"}}}
	cases := []struct {
		name   string
		errs   map[string]error
		failed []string
		ran    []string
	}{
		{name: "all succeed", ran: []string{"1", "2", "3", "4"}},
		{name: "failure fails the rest", errs: map[string]error{"2": errors.New("boom")},
			failed: []string{"2", "3", "4"}, ran: []string{"1", "2"}},
		{name: "dropped message is skipped", errs: map[string]error{"1": Drop(errors.New("bad"))},
			ran: []string{"1", "2", "3", "4"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var ran []string
			resp := FIFOBatch(context.Background(), ev, func(_ context.Context, m events.SQSMessage) error {
				ran = append(ran, m.MessageId)
				return c.errs[m.MessageId]
			})
			var failed []string
			for _, f := range resp.BatchItemFailures {
				failed = append(failed, f.ItemIdentifier)
			}
			if !slices.Equal(failed, c.failed) || !slices.Equal(ran, c.ran) {
				t.Fatalf("failed %v ran %v, want %v and %v", failed, ran, c.failed, c.ran)
			}
		})
	}
}
