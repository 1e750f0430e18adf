package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// accountsAtOnce is how many accounts' records of one stream batch are
// handled at once.
const accountsAtOnce = 16

// Message is a delivery queue message: the delivery whose attempt is due.
type Message struct {
	Account  string `json:"account_id"`
	Webhook  string `json:"webhook_id"`
	Delivery string `json:"delivery_id"`
}

// Follow is the webhooks' part of the events function (an events.Follower):
// each new event of the feed becomes one delivery per active webhook that
// wants its type (written once: a replayed event finds its deliveries), and
// each delivery that is new or retried by hand is sent to the delivery
// queue. It returns the first record of the earliest account whose work
// failed ("" when none).
func (s Service) Follow(ctx context.Context, changes []store.Change) string {
	return store.ByAccount(ctx, changes, accountsAtOnce, s.follow, func(account string, err error) {
		logctx.From(ctx).Error("webhook fan-out failed", "account_id", account, "error", err.Error())
	})
}

// follow handles one account's records.
func (s Service) follow(ctx context.Context, account string, changes []store.Change) error {
	var (
		evs   []events.Event
		sends []*delivery
	)
	for _, c := range changes {
		ev, ok, err := events.Published(c)
		if err != nil {
			return err
		}
		if ok {
			evs = append(evs, ev)
		}
		d, ok, err := toSend(c)
		if err != nil {
			return err
		}
		if ok {
			sends = append(sends, d)
		}
	}
	if err := s.fanOut(ctx, account, evs); err != nil {
		return err
	}
	for _, d := range sends {
		if err := s.Queue.SendMessage(ctx, queue.Message{Account: account, Body: Message{Account: account, Webhook: d.WebhookID, Delivery: d.ID}}); err != nil {
			return fmt.Errorf("send delivery %s: %w", d.ID, err)
		}
	}
	return nil
}

// fanOut writes the deliveries of evs: one Query of the account's webhooks,
// then one conditional put per delivery.
func (s Service) fanOut(ctx context.Context, account string, evs []events.Event) error {
	if len(evs) == 0 {
		return nil
	}
	hooks, err := listHooks(ctx, s.Table, account)
	if err != nil {
		return err
	}
	now := time.Now()
	for _, ev := range evs {
		for _, h := range hooks {
			if !h.wants(ev.Type) {
				continue
			}
			d := &delivery{Delivery: Delivery{ID: eventDeliveryID(ev.Seq), WebhookID: h.ID, EventID: ev.ID, EventType: ev.Type, EventSeq: ev.Seq}}
			d.start(now)
			if _, err := saveDelivery(ctx, s.Table, account, d, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// Deliver is the delivery function's work on one message: the attempt of
// a delivery that is due. A delivery not pending any more is done with; one
// not due yet goes back to the queue for the rest of its wait. The attempt
// is recorded with its outcome, conditioned on the delivery read (a
// duplicate message's attempt is not recorded twice), and a retry goes to
// the queue with its delay. An error means the message is to be handled
// again (it is not deleted).
func (s Service) Deliver(ctx context.Context, m Message) error {
	d, err := getDelivery(ctx, s.Table, m.Account, m.Webhook, m.Delivery)
	if err != nil || d == nil || d.Status != StatusPending {
		return err
	}
	now := time.Now()
	if wait := d.due(now); wait > earlyTolerance {
		return s.later(ctx, m, wait)
	}
	h, err := getHook(ctx, s.Table, m.Account, m.Webhook)
	if err != nil {
		return err
	}
	body, reason, err := s.payload(ctx, m.Account, d)
	switch {
	case err != nil:
		return err
	case h == nil:
		reason = "the webhook was deleted"
	case !h.Active:
		reason = "the webhook is not active"
	}
	if reason != "" {
		d.finish(reason, now)
		_, err := saveDelivery(ctx, s.Table, m.Account, d, now)
		return ignoreRaced(err)
	}
	res := s.Poster.Send(ctx, webhookhttp.Delivery{URL: h.URL, ID: d.EventID, At: now, Body: body, Secrets: h.secrets(now)})
	wait := d.outcome(attemptOf(res, now), res.OK, s.schedule(), time.Now())
	logctx.From(ctx).Info("webhook attempt", "account_id", m.Account, "webhook_id", h.ID, "delivery_id", d.ID,
		"ok", res.OK, "status", res.Status, "duration_ms", res.Duration.Milliseconds(), "error", res.Error, "delivery_status", d.Status)
	if d.Status == StatusFailed {
		logctx.Count(ctx, "WebhookDeliveryFailed", "account_id", m.Account, "webhook_id", h.ID, "delivery_id", d.ID)
	}
	if _, err := saveDelivery(ctx, s.Table, m.Account, d, time.Now()); err != nil {
		return ignoreRaced(err)
	}
	if d.Status == StatusPending {
		return s.later(ctx, m, wait)
	}
	return nil
}

// payload is the body of the delivery: a ping's own, or its event as the
// feed holds it; reason is set when the event is gone (past the feed's
// retention).
func (s Service) payload(ctx context.Context, account string, d *delivery) ([]byte, string, error) {
	if d.Body != "" {
		return []byte(d.Body), "", nil
	}
	ev, ok, err := s.Feed.Get(ctx, account, d.EventSeq)
	if err != nil || !ok {
		return nil, "the event is no longer kept", err
	}
	body, err := eventBody(ev)
	return body, "", err
}

// eventBody is the body of an event's delivery: the event as the feed
// returns it.
func eventBody(ev events.Event) ([]byte, error) {
	b, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("render event %s: %w", ev.ID, err)
	}
	return b, nil
}

// earlyTolerance is how early an attempt may be made: a message that
// comes back sooner than that before its delivery is due waits again.
const earlyTolerance = 50 * time.Millisecond

// later sends the message back to the queue to be handled after wait (a
// wait over SQS's 15 minutes takes several hops). SQS delays are whole
// seconds: the wait is rounded up, so the message never comes back early.
func (s Service) later(ctx context.Context, m Message, wait time.Duration) error {
	delay := min(wait.Truncate(time.Second), queue.MaxDelay)
	if delay < wait && delay < queue.MaxDelay {
		delay += time.Second
	}
	err := s.Queue.SendMessage(ctx, queue.Message{Account: m.Account, Delay: delay, Body: m})
	if err != nil {
		return fmt.Errorf("requeue delivery %s: %w", m.Delivery, err)
	}
	return nil
}

// schedule is the retry schedule in force.
func (s Service) schedule() []time.Duration {
	if s.Schedule == nil {
		return DefaultSchedule
	}
	return s.Schedule
}

// ignoreRaced drops the error of a write that lost to another handling of
// the same delivery (a duplicate message): that one carries on.
func ignoreRaced(err error) error {
	if errors.Is(err, errRaced) {
		return nil
	}
	return err
}

// attemptOf is the log entry of an attempt made at at.
func attemptOf(res webhookhttp.Result, at time.Time) Attempt {
	a := Attempt{At: stamp(at), ResponseTime: res.Duration.Milliseconds()}
	if res.Status != 0 {
		code := res.Status
		a.StatusCode = &code
	}
	if !res.OK && res.Error != "" {
		reason := res.Error
		a.Error = &reason
	}
	return a
}

// OverdueAfter is how long after its due time a pending delivery is taken
// for stranded (its queue message lost): well past any wait of a message in
// the queue (the delivery function's retries of a failed batch included).
const OverdueAfter = 15 * time.Minute

// Resend sends again every pending delivery that was due before the time
// (due now, or at its retry's time when that is still ahead): its push moves, so the table's stream sends it to the queue as
// it does a new one (a message that was only late makes one more attempt at
// most, whose record the first to finish wins). It returns how many it
// sent; one Query per shard of the pending deliveries' index finds them.
// The scheduled sweep runs it for the deliveries overdue by OverdueAfter;
// the local stack runs it for every pending one, due or not, at start and
// after its SQS emulator restarts, which loses every message.
func (s Service) Resend(ctx context.Context, before time.Time) (int, error) {
	sent := 0
	for n := range dueShards {
		overdue, err := overdueIn(ctx, s.Table, n, before)
		if err != nil {
			return sent, err
		}
		for _, o := range overdue {
			now := time.Now()
			at := isotime.Format(now)
			if o.d.due(now) <= 0 { // a retry still waiting keeps its time
				o.d.NextAttemptAt = &at
			}
			o.d.UpdatedAt = at
			o.d.Push++
			if _, err := saveDelivery(ctx, s.Table, o.account, o.d, now); ignoreRaced(err) != nil {
				return sent, err
			} else if err == nil {
				sent++
			}
		}
	}
	if sent > 0 {
		logctx.Metric(ctx, "WebhookDeliveriesResent", "Count", float64(sent))
	}
	return sent, nil
}
