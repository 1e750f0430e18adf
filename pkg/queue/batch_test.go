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

func TestFIFOGroups(t *testing.T) {
	t.Parallel()
	msg := func(id, group string) events.SQSMessage {
		return events.SQSMessage{MessageId: id, Attributes: map[string]string{"MessageGroupId": group}}
	}
	ev := events.SQSEvent{Records: []events.SQSMessage{msg("a1", "a"), msg("b1", "b"), msg("a2", "a"), msg("b2", "b"), msg("a3", "a")}}
	cases := []struct {
		name   string
		errs   map[string]error
		failed []string
	}{
		{name: "all succeed"},
		{name: "a failure fails the rest of its group only", errs: map[string]error{"a2": errors.New("boom")}, failed: []string{"a2", "a3"}},
		{name: "failures in two groups", errs: map[string]error{"a1": errors.New("boom"), "b2": errors.New("boom")},
			failed: []string{"a1", "a2", "a3", "b2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			resp := FIFOGroups(context.Background(), ev, func(_ context.Context, m events.SQSMessage) error {
				return c.errs[m.MessageId]
			})
			var failed []string
			for _, f := range resp.BatchItemFailures {
				failed = append(failed, f.ItemIdentifier)
			}
			slices.Sort(failed)
			if !slices.Equal(failed, c.failed) {
				t.Fatalf("failed %v, want %v", failed, c.failed)
			}
		})
	}
}
