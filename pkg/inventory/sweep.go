package inventory

import (
	"context"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/queue"
)

// DefaultResendAfter is how long an accepted adjustment may stay queued
// before the sweep sends it again, when Service.ResendAfter is not set: five
// times the adjustments queue's visibility timeout, so a message merely
// waiting its turn is not sent twice.
const DefaultResendAfter = 15 * time.Minute

// maxSends is how often the sweep sends a request again before it gives it
// up (failed, the reason saying so).
const maxSends = 10

// resendAfter is ResendAfter, or DefaultResendAfter when it is not set.
func (s Service) resendAfter() time.Duration {
	if s.ResendAfter > 0 {
		return s.ResendAfter
	}
	return DefaultResendAfter
}

// Resend sends again every adjustment still queued that was accepted before
// the time, in the order accepted (an account's requests in order), and
// returns how many it sent: the messages of those were lost, or are stuck
// behind a failing one (then the copy changes nothing twice). One Query per
// shard of the queued-requests index finds them. A request sent maxSends
// times already is given up instead. The scheduled sweep runs it for the
// requests older than ResendAfter; the local stack runs it for all of them
// at start and after its SQS emulator restarts, which loses every message.
func (s Service) Resend(ctx context.Context, before time.Time) (int, error) {
	sent := 0
	for n := range requestShards {
		queued, err := queuedBefore(ctx, s.Table, n, before)
		if err != nil {
			return sent, err
		}
		for _, q := range queued {
			ok, err := s.resend(ctx, q)
			if err != nil {
				return sent, err
			}
			if ok {
				sent++
			}
		}
	}
	if sent > 0 {
		logctx.Metric(ctx, "AdjustmentsResent", "Count", float64(sent))
	}
	return sent, nil
}

// resend sends one queued request again, or gives it up; it reports whether
// it sent it.
func (s Service) resend(ctx context.Context, q queuedRequest) (bool, error) {
	var adj Adjustment
	if err := queue.Decode(q.Adjustment, &adj); err != nil {
		return false, fmt.Errorf("queued adjustment %s: %w", q.RequestID, err)
	}
	if q.Sends >= maxSends {
		_, err := failRequest(ctx, s.Table, adj.Account, adj.RequestID, fmt.Sprintf("not applied after %d attempts", maxSends+1), false)
		return false, err
	}
	if ok, err := countSend(ctx, s.Table, adj.Account, adj.RequestID); err != nil || !ok {
		return false, err
	}
	dedup := fmt.Sprintf("%s.%d", adj.RequestID, q.Sends+1) // not the first send's id: SQS would drop it as a repeat
	if err := s.send(ctx, adj, dedup); err != nil {
		return false, err
	}
	logctx.From(ctx).Info("adjustment sent again", "account_id", adj.Account, "request_id", adj.RequestID, "sends", q.Sends+1)
	return true, nil
}
