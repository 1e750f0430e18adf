package webhooks

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
)

// Delivery statuses.
const (
	// StatusPending: an attempt is due (now, or at next_attempt_at).
	StatusPending = "pending"
	// StatusSucceeded: the receiver answered 2xx.
	StatusSucceeded = "succeeded"
	// StatusFailed: every attempt of the schedule failed, or the webhook
	// was deleted or deactivated meanwhile; POST .../retry tries again.
	StatusFailed = "failed"
)

// PingType is the type of the test delivery POST /webhooks/{id}/ping sends
// (it is not in the feed).
const PingType = "webhook.ping"

// DeliveryNotFoundMessage is the 404 of an unknown delivery.
const DeliveryNotFoundMessage = "Delivery not found"

// maxLoggedAttempts is how many attempts a delivery's log keeps (the
// newest).
const maxLoggedAttempts = 20

// DefaultSchedule is the wait before each retry of a failed delivery: 12
// retries over about two days, each wait jittered by up to a fifth either
// way (docs/webhooks.md).
var DefaultSchedule = []time.Duration{
	5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour, 12 * time.Hour, 12 * time.Hour, 10 * time.Hour,
}

// ParseSchedule reads a schedule: Go durations separated by commas (the
// WEBHOOK_RETRY_SCHEDULE setting, for tests and operators); empty is the
// DefaultSchedule.
func ParseSchedule(s string) ([]time.Duration, error) {
	if strings.TrimSpace(s) == "" {
		return DefaultSchedule, nil
	}
	var out []time.Duration
	for _, part := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d < 0 {
			return nil, fmt.Errorf("retry schedule %q: %q is not a duration", s, part)
		}
		out = append(out, d)
	}
	return out, nil
}

// Delivery is one event's delivery to one webhook, as GET
// /webhooks/{id}/deliveries returns it: its state and the log of its
// attempts.
type Delivery struct {
	ID            string    `json:"id" dynamodbav:"id"`
	WebhookID     string    `json:"webhook_id" dynamodbav:"webhook_id"`
	EventID       string    `json:"event_id" dynamodbav:"event_id"`
	EventType     string    `json:"event_type" dynamodbav:"event_type"`
	EventSeq      int64     `json:"event_seq" dynamodbav:"event_seq"`
	Status        string    `json:"status" dynamodbav:"status"`
	AttemptCount  int       `json:"attempt_count" dynamodbav:"attempt_count"`
	NextAttemptAt *string   `json:"next_attempt_at" dynamodbav:"next_attempt_at"`
	Attempts      []Attempt `json:"attempts" dynamodbav:"attempts"`
	CreatedAt     string    `json:"created_at" dynamodbav:"created_at"`
	UpdatedAt     string    `json:"updated_at" dynamodbav:"updated_at"`
}

// Attempt is one try of a delivery: when, the receiver's status code (null
// without an answer), how long it took, and what went wrong.
type Attempt struct {
	At           string  `json:"at" dynamodbav:"at"`
	StatusCode   *int    `json:"status_code" dynamodbav:"status_code"`
	ResponseTime int64   `json:"response_time_ms" dynamodbav:"response_time_ms"`
	Error        *string `json:"error" dynamodbav:"error"`
}

// delivery is a delivery as stored: the API's fields and its sending
// state.
type delivery struct {
	Delivery
	// Tries counts the attempts of the current round (a manual retry
	// starts a new one): the schedule's position.
	Tries int `dynamodbav:"tries"`
	// Push counts manual retries and the first send: its stream record
	// moving is what sends the delivery to the queue.
	Push int64 `dynamodbav:"push"`
	// Body is a ping's payload; an event's is read from the feed.
	Body string `dynamodbav:"body,omitempty"`
	// Rev counts the item's writes; each is conditioned on the one read.
	Rev int64 `dynamodbav:"rev"`
}

// outcome records an attempt made at now and decides what follows: success,
// the next retry of the schedule, or failure once the schedule is spent.
// It returns the wait before the next attempt (0 when there is none).
func (d *delivery) outcome(a Attempt, ok bool, schedule []time.Duration, now time.Time) time.Duration {
	d.AttemptCount++
	d.Tries++
	d.UpdatedAt = isotime.Format(now)
	d.Attempts = append(d.Attempts, a)
	if n := len(d.Attempts); n > maxLoggedAttempts {
		d.Attempts = d.Attempts[n-maxLoggedAttempts:]
	}
	d.NextAttemptAt = nil
	switch {
	case ok:
		d.Status = StatusSucceeded
	case d.Tries > len(schedule):
		d.Status = StatusFailed
	default:
		wait := jitter(schedule[d.Tries-1])
		next := stamp(now.Add(wait))
		d.NextAttemptAt = &next
		return wait
	}
	return 0
}

// finish ends the delivery as failed without an attempt: reason says why
// (the webhook is gone or inactive, the event expired).
func (d *delivery) finish(reason string, now time.Time) {
	d.Status, d.NextAttemptAt, d.UpdatedAt = StatusFailed, nil, isotime.Format(now)
	d.Attempts = append(d.Attempts, Attempt{At: stamp(now), Error: &reason})
}

// stamp is the time of an attempt as deliveries show it: UTC, to the
// millisecond.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// due returns how long before the delivery's next attempt is due (0 or
// less: now).
// dueAt is when the pending delivery's next attempt is due: next_attempt_at,
// or when it was made pending (updated_at) for a first attempt; a time of
// isotime.Format, so that the index orders by it.
func (d *delivery) dueAt() string {
	if d.NextAttemptAt != nil {
		return *d.NextAttemptAt
	}
	return d.UpdatedAt
}

// overdue reports whether the pending delivery was due longer than
// OverdueAfter before now: its queue message is lost (a crash between its
// record and its send, an emulator restart), and only the sweep or a
// manual retry sends it again.
func (d *delivery) overdue(now time.Time) bool {
	at, err := time.Parse(time.RFC3339, d.dueAt())
	return d.Status == StatusPending && err == nil && now.Sub(at) > OverdueAfter
}

func (d *delivery) due(now time.Time) time.Duration {
	if d.NextAttemptAt == nil {
		return 0
	}
	at, err := time.Parse(time.RFC3339Nano, *d.NextAttemptAt)
	if err != nil {
		return 0
	}
	return at.Sub(now)
}

// jitter spreads d by up to a fifth either way, so receivers that failed
// together are not all retried at the same moment.
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	spread := int64(d) / 5
	return time.Duration(int64(d) - spread + rand.Int64N(2*spread+1))
}

// Delivery ids: an event's delivery is named by its seq, so each
// (webhook, event) has one delivery however often the event's record is
// replayed; a ping by the feed's position at the time and a random part.
// Both sort newest last, so a reversed Query lists newest first.
var deliveryIDPattern = regexp.MustCompile(`^dlv_[0-9]{16}(_ping[0-9a-f]{16})?$`)

// eventDeliveryID is the id of the delivery of event seq.
func eventDeliveryID(seq int64) string { return fmt.Sprintf("dlv_%016d", seq) }

// pingDeliveryID is the id of a ping sent when the feed's last seq is
// last: its time (in nanoseconds, never the same twice in a process) comes
// after the position, so pings sort in the order they were sent.
func pingDeliveryID(last int64) string {
	return fmt.Sprintf("dlv_%016d_ping%016x", last, pingClock())
}

// lastPing is the time of the last ping id made by this process.
var lastPing atomic.Int64

// pingClock returns the time in nanoseconds, later than it returned before.
func pingClock() int64 {
	for {
		prev, now := lastPing.Load(), time.Now().UnixNano()
		next := max(now, prev+1)
		if lastPing.CompareAndSwap(prev, next) {
			return next
		}
	}
}

// validDeliveryID reports whether id can name a delivery.
func validDeliveryID(id string) bool { return deliveryIDPattern.MatchString(id) }
