package connectors

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
)

// Handlers serves the connector functions over the Service.
type Handlers struct{ Service }

// Consume is the connector-push function: the connector queue's messages (the outbox
// messages of channels served by a connector of multisell's own), pushed at once per
// channel (Service.Push). A message that can never be applied is dropped (logged and
// counted); one the channel's limits put off is reported as a batch item failure and made
// visible again at its RetryAt (never answered failed), or, put off by a limit of its
// listing alone, sent again in its listing's message group (regroup); one whose answer did
// not reach the inbox is reported and comes back within seconds (queue.Sender.RetrySoon).
// No channel's limits hold the batch more than PushWait (docs/connectors.md, "Pushes and
// fairness").
func (h Handlers) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	msgs := make([]Message, len(ev.Records))
	for i, m := range ev.Records {
		msgs[i] = Message{ID: m.MessageId, Body: m.Body, Account: account(m)}
	}
	var resp, failed events.SQSEventResponse
	later := map[string]time.Duration{}
	now := time.Now()
	log := logctx.From(ctx)
	for i, o := range h.Push(ctx, msgs) {
		item := events.SQSBatchItemFailure{ItemIdentifier: o.ID}
		switch {
		case o.Drop != "":
			logctx.Count(ctx, "MessageDropped", "message_id", o.ID, "error", o.Drop)
		case o.Regroup != "" && h.regroup(ctx, ev.Records[i], o.Regroup):
		case !o.RetryAt.IsZero():
			resp.BatchItemFailures = append(resp.BatchItemFailures, item)
			later[o.ID] = o.RetryAt.Sub(now)
		case o.Err != nil:
			log.Error("push failed", "message_id", o.ID, "error", o.Err.Error())
			resp.BatchItemFailures = append(resp.BatchItemFailures, item)
			failed.BatchItemFailures = append(failed.BatchItemFailures, item)
		}
	}
	if len(later) > 0 {
		log.Info("pushes put off by the channels' limits", "messages", len(later))
	}
	if err := h.Pushes.Hide(ctx, ev, later); err != nil {
		log.Warn("put-off pushes come back after the visibility timeout", "error", err.Error())
	}
	if err := h.Pushes.RetrySoon(ctx, ev, failed); err != nil {
		log.Warn("failed pushes come back after the visibility timeout", "error", err.Error())
	}
	return resp, nil
}

// regroup sends m again in the message group group, unless it is in that group already, so
// that it waits there for its own limit (Outcome.Regroup) while its channel's lane goes on;
// true when it was sent (m is then done with). A send that fails is logged, and m waits in
// its lane.
func (h Handlers) regroup(ctx context.Context, m events.SQSMessage, group string) bool {
	if m.Attributes["MessageGroupId"] == group {
		return false
	}
	err := h.Pushes.SendMessage(ctx, queue.Message{Group: group, Dedup: m.MessageId, Account: account(m), Text: m.Body})
	if err != nil {
		logctx.From(ctx).Warn("a push put off alone waits in its channel's lane", "message_id", m.MessageId, "error", err.Error())
		return false
	}
	return true
}

// Schedule is the connector-poll-schedule function (every PollEvery): one poll message per
// connected channel (Service.Schedule).
func (h Handlers) Schedule(ctx context.Context, ev events.EventBridgeEvent) error {
	at := ev.Time
	if at.IsZero() {
		at = time.Now()
	}
	n, err := h.Service.Schedule(ctx, at)
	logctx.From(ctx).Info("polls scheduled", "channels", n)
	return err
}

// ConsumePolls is the connector-poll function: the poll queue's messages, each the poll of
// one channel, all at once (Service.PollChannel). A message it cannot read, or of a channel
// the runtime cannot reach any more, is dropped; a failed poll comes back within seconds,
// and after the queue's receive count goes to its dead-letter queue (an alarm), while the
// next scheduled poll resumes from the same cursor.
func (h Handlers) ConsumePolls(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	resp := queue.Batch(ctx, ev, func(ctx context.Context, m events.SQSMessage) error {
		var msg PollMessage
		if err := queue.Decode(m.Body, &msg); err != nil {
			return queue.Drop(err)
		}
		if msg.Account == "" || msg.UUID == "" || msg.Account != account(m) {
			return queue.Drop(fmt.Errorf("poll message without its account and channel"))
		}
		_, err := h.PollChannel(ctx, msg.ChannelRef)
		if errs.KindOf(err) == errs.KindNotFound {
			return queue.Drop(err)
		}
		return err
	})
	if err := h.Polls.RetrySoon(ctx, ev, resp); err != nil {
		logctx.From(ctx).Warn("failed polls come back after the visibility timeout", "error", err.Error())
	}
	return resp, nil
}

// account is the message's account_id attribute ("" without one).
func account(m events.SQSMessage) string {
	if a, ok := m.MessageAttributes[queue.AccountAttribute]; ok && a.StringValue != nil {
		return *a.StringValue
	}
	return ""
}
