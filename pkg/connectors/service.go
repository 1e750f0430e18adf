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
	// Directory lists the channels to poll; Disconnector sets a channel disconnected.
	Directory    Directory
	Disconnector Disconnector
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

// Push applies the connector queue's messages (Runtime.Push) and reports the channels it
// found disconnected; it returns each message's Outcome. A report that fails is logged: the
// channel's next refusal reports it again.
func (s Service) Push(ctx context.Context, msgs []Message) []Outcome {
	if s.Runtime.Channels == nil {
		out := make([]Outcome, len(msgs))
		for i, m := range msgs {
			out[i] = Outcome{ID: m.ID, Drop: errNoChannels.Error()}
		}
		return out
	}
	rep := s.Runtime.Push(ctx, msgs)
	for _, d := range rep.Disconnected {
		s.disconnect(ctx, d)
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
// refusal short of the disconnection; a disconnection is reported. Any other error is a
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
		d  *Disconnected
		th *Throttled
		ae *AuthError
	)
	log := logctx.From(ctx).With("channel_uuid", ref.UUID)
	switch {
	case errors.As(err, &d):
		return res, s.disconnect(ctx, d)
	case errors.As(err, &th), errors.As(err, &ae):
		log.Warn("poll put off to the next schedule", "reason", err.Error())
		return res, nil
	case err != nil:
		return res, err
	}
	log.Info("poll", "busy", res.Busy, "orders", res.Orders, "pages", res.Pages)
	return res, nil
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
