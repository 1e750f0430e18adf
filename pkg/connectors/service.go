package connectors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
)

// Service is what the connector functions run (handlers.go): the push of the connector
// queue, the poll scheduler and the poll of one channel, over the Runtime.
type Service struct {
	Runtime *Runtime
	// Pushes is the connector queue (FIFO), whose messages the push consumer puts off;
	// Polls the poll queue (FIFO), which the scheduler fills.
	Pushes, Polls queue.Sender
	// Directory lists the channels to poll; Disconnector sets a channel disconnected;
	// Status records the connection's last poll, push and error. All three are the
	// channels domain, wired in pkg/app.
	Directory    Directory
	Disconnector Disconnector
	Status       Status
}

// Status records what GET /v1/channels shows of a channel's connection.
type Status interface {
	RecordPoll(ctx context.Context, account, uuid string, at time.Time) error
	RecordPush(ctx context.Context, account, uuid string, at time.Time) error
	RecordError(ctx context.Context, account, uuid, message string, at time.Time) error
}

// Directory lists the channels the runtime polls.
type Directory interface {
	// Connected returns every channel served by a connector of multisell's own, connected
	// and active, across the accounts.
	Connected(ctx context.Context) ([]ChannelRef, error)
}

// ChannelRef names an account's channel.
type ChannelRef struct {
	Account string `json:"account_id"`
	UUID    string `json:"channel_uuid"`
}

// Disconnector is the channels side of a disconnection: the channel goes disconnected with
// the reason, and a channel.disconnected event is written.
type Disconnector interface {
	Disconnect(ctx context.Context, d *Disconnected) error
}

// PollEvery is the period of the poll schedule (template.yaml's ConnectorPollScheduleFunction):
// the slot that deduplicates a channel's poll messages.
const PollEvery = 2 * time.Minute

// PollMessage asks for one poll of a channel, in a schedule slot.
type PollMessage struct {
	ChannelRef
	Slot time.Time `json:"slot"`
}

// Push applies the connector queue's messages (Runtime.Push, the calls of each channel
// waiting for its limits at most PushWait) and reports the channels it found disconnected;
// it returns each message's Outcome. A report that fails is logged: the
// channel's next refusal reports it again.
func (s Service) Push(ctx context.Context, msgs []Message) []Outcome {
	if s.Runtime.Channels == nil {
		out := make([]Outcome, len(msgs))
		for i, m := range msgs {
			out[i] = Outcome{ID: m.ID, Drop: errNoChannels.Error()}
		}
		return out
	}
	rep := s.Runtime.push(ctx, msgs, PushWait)
	for _, d := range rep.Disconnected {
		s.disconnect(ctx, d)
	}
	for _, c := range rep.Channels {
		if c.Err == nil {
			s.record(ctx, c.ChannelRef, nil)
		} else if errs.KindOf(c.Err) != errs.KindNotFound {
			s.record(ctx, c.ChannelRef, c.Err)
		}
	}
	return rep.Outcomes
}

// Schedule sends one poll message per channel of the Directory for the slot of at (none,
// logged, without a Directory).
func (s Service) Schedule(ctx context.Context, at time.Time) (int, error) {
	if s.Directory == nil {
		logctx.From(ctx).Warn("no channel to poll: no Directory wired")
		return 0, nil
	}
	refs, err := s.Directory.Connected(ctx)
	if err != nil {
		return 0, fmt.Errorf("list the connected channels: %w", err)
	}
	slot := at.UTC().Truncate(PollEvery)
	for i, ref := range refs {
		if err := s.Enqueue(ctx, ref, slot); err != nil {
			return i, err
		}
	}
	return len(refs), nil
}

// Enqueue sends the poll message of ref in slot: the channel's message group, deduplicated
// per channel and slot, so a scheduler run twice for one slot polls once.
func (s Service) Enqueue(ctx context.Context, ref ChannelRef, slot time.Time) error {
	m := queue.Message{
		Group:   queue.Group("poll", ref.Account, ref.UUID),
		Dedup:   queue.Group("slot", ref.Account, ref.UUID, slot.UTC().Format(time.RFC3339)),
		Account: ref.Account, Body: PollMessage{ChannelRef: ref, Slot: slot},
	}
	if err := s.Polls.SendMessage(ctx, m); err != nil {
		return fmt.Errorf("send the poll of channel %s: %w", ref.UUID, err)
	}
	return nil
}

// PollChannel polls the channel ref names (Runtime.Poll). A channel the runtime cannot
// reach any more (not connected) is errs.NotFound. What the next scheduled poll takes care
// of is no error: a poll already under way (Busy), the channel's limits (Throttled), a
// refusal short of the disconnection, an operation the channel forbids (Forbidden, recorded),
// a channel's bad answer (counted and recorded); a
// disconnection is reported. Any other error is a
// failed poll, which resumes from the same cursor when tried again.
func (s Service) PollChannel(ctx context.Context, ref ChannelRef) (PollResult, error) {
	if s.Runtime.Channels == nil {
		return PollResult{}, errNoChannels
	}
	ch, err := s.Runtime.Channels.Channel(ctx, ref.Account, ref.UUID)
	if err != nil {
		return PollResult{}, fmt.Errorf("find channel %s: %w", ref.UUID, err)
	}
	res, err := s.Runtime.Poll(ctx, ch)
	var (
		d   *Disconnected
		th  *Throttled
		ae  *AuthError
		fb  *Forbidden
		bad *BadAnswer
	)
	log := logctx.From(ctx).With("channel_uuid", ref.UUID)
	switch {
	case errors.As(err, &d):
		return res, s.disconnect(ctx, d)
	case errors.As(err, &th), errors.As(err, &ae), errors.As(err, &fb):
		log.Warn("poll put off to the next schedule", "reason", err.Error())
		s.record(ctx, ref, err)
		return res, nil
	case errors.As(err, &bad):
		s.badAnswer(ctx, ref, bad)
		return res, nil
	case err != nil:
		s.record(ctx, ref, err)
		return res, err
	}
	log.Info("poll", "busy", res.Busy, "orders", res.Orders, "pages", res.Pages)
	if !res.Busy {
		s.recordPoll(ctx, ref)
	}
	for _, n := range res.Notices {
		logctx.Count(ctx, "ChannelNotice", "account_id", ref.Account, "channel_uuid", ref.UUID, "notice", n)
		s.record(ctx, ref, errors.New(n))
	}
	if res.Refused != nil {
		s.badAnswer(ctx, ref, res.Refused)
	}
	return res, nil
}

// badAnswer counts a channel's answer the runtime refused (ChannelBadAnswer) and records it
// as the channel's last error.
func (s Service) badAnswer(ctx context.Context, ref ChannelRef, bad *BadAnswer) {
	logctx.Count(ctx, "ChannelBadAnswer", "account_id", ref.Account, "channel_uuid", ref.UUID, "reason", bad.Reason)
	s.record(ctx, ref, bad)
}

// record records, through Status, a push to the channel of ref (failure nil) or the error
// of a push or poll; a record that fails is logged only (the next one records again).
func (s Service) record(ctx context.Context, ref ChannelRef, failure error) {
	if s.Status == nil {
		return
	}
	now := s.Runtime.now()
	var err error
	if failure != nil {
		err = s.Status.RecordError(ctx, ref.Account, ref.UUID, failure.Error(), now)
	} else {
		err = s.Status.RecordPush(ctx, ref.Account, ref.UUID, now)
	}
	if err != nil {
		logctx.From(ctx).Warn("connection status not recorded", "channel_uuid", ref.UUID, "error", err.Error())
	}
}

// recordPoll records a poll of the channel of ref through Status (a failure is logged only).
func (s Service) recordPoll(ctx context.Context, ref ChannelRef) {
	if s.Status == nil {
		return
	}
	if err := s.Status.RecordPoll(ctx, ref.Account, ref.UUID, s.Runtime.now()); err != nil {
		logctx.From(ctx).Warn("connection status not recorded", "channel_uuid", ref.UUID, "error", err.Error())
	}
}

// errNoChannels is the error of a runtime without its Channels: it reaches no channel, so
// what names one is dropped (logged and counted).
var errNoChannels = errs.NotFound("no Channels wired: the runtime reaches no channel")

// disconnect reports d through the Disconnector.
func (s Service) disconnect(ctx context.Context, d *Disconnected) error {
	if s.Disconnector == nil {
		return fmt.Errorf("disconnect channel %s: no Disconnector wired", d.Channel)
	}
	if err := s.Disconnector.Disconnect(ctx, d); err != nil {
		err = fmt.Errorf("disconnect channel %s: %w", d.Channel, err)
		logctx.From(ctx).Error("channel disconnection not recorded", "error", err.Error())
		return err
	}
	return nil
}
