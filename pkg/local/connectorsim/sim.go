package connectorsim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/wire"
)

// Sim is a stand-in channel connector: it answers every message of the channel outbox with
// a result on the channel inbox, keeping its simulated channels in files under Dir.
type Sim struct {
	// SQS is the client of the queues' endpoint.
	SQS *sqs.Client
	// OutboxURL and InboxURL are the channel outbox and inbox queues.
	OutboxURL string
	InboxURL  string
	// Dir holds the simulated channels, <Dir>/<account_id>/<channel_uuid>.json, and the
	// lock of the sim using it (sim.pid).
	Dir string
	// FailRate (0 to 1) is the probability that the channel refuses an update: the answer
	// is ok:false with SimulatedError and the channel does not change.
	FailRate float64
	// Rand draws the failures; nil uses the global source. Tests pass a seeded one.
	Rand *rand.Rand
	// Refuse, when set, makes every update of the accounts it returns true for fail
	// (tests of the retries, in a stack other tests share).
	Refuse func(account string) bool
	// Logger receives a line per message; nil is slog.Default().
	Logger *slog.Logger
	// WaitTime is the long-poll wait of each receive, in whole seconds from 1 to 20;
	// default 1 s. Run returns within about that long once its context ends.
	WaitTime time.Duration
	// Report sends a listing message for every listing of every simulated channel once,
	// when Run starts.
	Report bool
}

const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 5 * time.Second
	// batchTimeout bounds the handling of one received batch, which finishes even when
	// Run's context ends meanwhile.
	batchTimeout = 30 * time.Second
	// receiveVisibility keeps a received batch invisible while it is handled (batchTimeout
	// and the delete after it).
	receiveVisibility = batchTimeout + 15*time.Second
)

// Run answers the outbox until ctx ends, and then returns nil once the long poll under way
// (WaitTime) and the messages it brings are done. It returns an error only when it cannot
// start: a field missing, or another sim using Dir. An SQS error is logged and retried
// after a pause; a message it cannot read is logged and deleted.
func (s *Sim) Run(ctx context.Context) error {
	switch {
	case s.SQS == nil || s.OutboxURL == "" || s.InboxURL == "":
		return errors.New("connector sim: the SQS client and both queue URLs are required")
	case s.Dir == "":
		return errors.New("connector sim: no state directory")
	case math.IsNaN(s.FailRate) || s.FailRate < 0 || s.FailRate > 1:
		return fmt.Errorf("connector sim: fail rate %v is not between 0 and 1", s.FailRate)
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("connector sim: %w", err)
	}
	unlock, err := lockDir(s.Dir)
	if err != nil {
		return err
	}
	defer unlock()
	log := s.logger()
	log.Info("connector sim: answering the channel outbox", "outbox", s.OutboxURL, "inbox", s.InboxURL, "dir", s.Dir, "fail_rate", s.FailRate)
	if s.Report {
		n, err := s.report(ctx)
		if err != nil {
			log.Warn("connector sim: report of the listings failed", "error", err.Error())
		} else {
			log.Info("connector sim: reported the listings", "listings", n)
		}
	}
	backoff := minBackoff
	pause := func() {
		select {
		case <-ctx.Done():
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, maxBackoff)
	}
	wait := min(max(cmp.Or(s.WaitTime, time.Second), time.Second), 20*time.Second).Truncate(time.Second) // SQS: 0 to 20 s
	for ctx.Err() == nil {
		// The long poll is not cancelled with ctx: a receive abandoned midway may still take
		// a message, which would then stay invisible for the queue's visibility timeout.
		// Run returns at the latest when the poll ends.
		// A receive whose answer is lost on the way back (the connection broke) is not
		// retried behind the sim's back, and what the emulator took for it comes back after
		// receiveVisibility rather than the outbox's visibility timeout.
		recvCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), wait+10*time.Second)
		out, err := s.SQS.ReceiveMessage(recvCtx, &sqs.ReceiveMessageInput{
			QueueUrl:              aws.String(s.OutboxURL),
			MaxNumberOfMessages:   10,
			WaitTimeSeconds:       int32(wait / time.Second),
			VisibilityTimeout:     int32(receiveVisibility / time.Second),
			MessageAttributeNames: []string{"All"},
		}, func(o *sqs.Options) { o.RetryMaxAttempts = 1 })
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			log.Warn("connector sim: receive from the outbox failed", "error", err.Error(), "retry_in", backoff.String())
			pause()
			continue
		}
		batchCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), batchTimeout)
		err = s.handleBatch(batchCtx, out.Messages)
		cancel()
		if err != nil {
			log.Warn("connector sim: SQS call failed; the message returns to the outbox", "error", err.Error(), "retry_in", backoff.String())
			pause()
			continue
		}
		backoff = minBackoff
	}
	return nil
}

func (s *Sim) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// handleBatch handles the messages in order. On an SQS error it makes the message and the
// ones after it visible again at once (best effort) and returns the error.
func (s *Sim) handleBatch(ctx context.Context, msgs []sqstypes.Message) error {
	for i, m := range msgs {
		if err := s.handle(ctx, m); err != nil {
			s.release(ctx, msgs[i:])
			return err
		}
	}
	return nil
}

// handle applies one outbox message, answers it and deletes it. Only an SQS error is
// returned: a message it cannot read is logged and deleted, and a state file it cannot
// read or write is answered as a failure of the channel.
func (s *Sim) handle(ctx context.Context, m sqstypes.Message) error {
	log := s.logger()
	body := aws.ToString(m.Body)
	var attrAccount string
	if a, ok := m.MessageAttributes["account_id"]; ok {
		attrAccount = aws.ToString(a.StringValue)
	}
	msg, err := decode(body, attrAccount)
	if err != nil {
		log.Warn("connector sim: dropping an outbox message it cannot read",
			"message_id", aws.ToString(m.MessageId), "error", err.Error(), "body", clip(body, 300))
		return s.delete(ctx, m)
	}
	var (
		account string
		answer  any
	)
	switch msg := msg.(type) {
	case *wire.QuantityMessage:
		account = msg.AccountID
		res := s.applyQuantity(msg)
		answer = res
		log.Info("connector sim: "+wire.TypeListingQuantity, "account_id", account, "channel_uuid", msg.ChannelUUID,
			"channel_sku", msg.ChannelSKU, "version", msg.Version, "quantity", msg.Quantity,
			"ok", res.OK, "error", res.Error, "channel_quantity", *res.ChannelQuantity)
	case *wire.TrackingMessage:
		account = msg.AccountID
		res := s.applyTracking(msg)
		answer = res
		log.Info("connector sim: "+wire.TypeShipmentTracking, "account_id", account, "channel_uuid", msg.ChannelUUID,
			"shipment_id", msg.ShipmentID, "display_ref", msg.DisplayRef, "tracking_number", msg.TrackingNumber,
			"ok", res.OK, "error", res.Error)
	}
	if err := s.send(ctx, account, answer, aws.ToString(m.MessageId)); err != nil {
		return err
	}
	return s.delete(ctx, m)
}

// applyQuantity loads the channel, applies the message and saves the channel when it
// changed. A state file it cannot read or write fails the update.
func (s *Sim) applyQuantity(m *wire.QuantityMessage) wire.ListingResult {
	ch, err := LoadChannel(s.Dir, m.AccountID, m.ChannelUUID)
	if err != nil {
		s.logger().Error("connector sim: state", "error", err.Error())
		// Every listing.result of the sim has channel_quantity (docs/local-stack.md): 0 here.
		return wire.ListingResult{Type: wire.TypeListingResult, ChannelUUID: m.ChannelUUID, ChannelSKU: m.ChannelSKU,
			Version: m.Version, Error: "connector sim: " + err.Error(), ChannelQuantity: new(int64(0))}
	}
	before := ch.Listings[m.ChannelSKU].Quantity
	res, changed := ch.applyQuantity(m, s.failFor(m.AccountID), time.Now())
	if changed {
		if err := ch.save(s.Dir); err != nil {
			s.logger().Error("connector sim: state", "error", err.Error())
			res.OK, res.Error, res.ChannelQuantity = false, "connector sim: "+err.Error(), &before
		}
	}
	return res
}

// applyTracking loads the channel, posts the tracking and saves the channel when it
// changed. A state file it cannot read or write fails the post.
func (s *Sim) applyTracking(m *wire.TrackingMessage) wire.ShipmentResult {
	ch, err := LoadChannel(s.Dir, m.AccountID, m.ChannelUUID)
	if err == nil {
		res, changed := ch.applyTracking(m, s.failFor(m.AccountID), time.Now())
		if !changed {
			return res
		}
		if err = ch.save(s.Dir); err == nil {
			return res
		}
	}
	s.logger().Error("connector sim: state", "error", err.Error())
	return wire.ShipmentResult{Type: wire.TypeShipmentResult, ChannelUUID: m.ChannelUUID, ShipmentID: m.ShipmentID,
		Error: "connector sim: " + err.Error()}
}

// failFor is fail for an update of the account, always true when Refuse says so.
func (s *Sim) failFor(account string) func() bool {
	return func() bool { return (s.Refuse != nil && s.Refuse(account)) || s.fail() }
}

// fail draws whether the channel refuses this update.
func (s *Sim) fail() bool {
	if s.FailRate <= 0 {
		return false
	}
	if s.Rand != nil {
		return s.Rand.Float64() < s.FailRate
	}
	return rand.Float64() < s.FailRate
}

// send puts an answer on the inbox in the account's message group. nonce makes the
// deduplication id differ between deliveries with the same answer.
func (s *Sim) send(ctx context.Context, account string, v any, nonce string) error {
	body, err := encode(v)
	if err != nil {
		return fmt.Errorf("encode answer: %w", err)
	}
	_, err = s.SQS.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:               aws.String(s.InboxURL),
		MessageBody:            aws.String(body),
		MessageGroupId:         aws.String(account),
		MessageDeduplicationId: aws.String(dedupID(body, nonce)),
		MessageAttributes: map[string]sqstypes.MessageAttributeValue{
			"account_id": {DataType: aws.String("String"), StringValue: aws.String(account)},
		},
	})
	if err != nil {
		return fmt.Errorf("send to the inbox: %w", err)
	}
	return nil
}

func (s *Sim) delete(ctx context.Context, m sqstypes.Message) error {
	_, err := s.SQS.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(s.OutboxURL), ReceiptHandle: m.ReceiptHandle})
	if err != nil {
		return fmt.Errorf("delete from the outbox: %w", err)
	}
	return nil
}

// release makes messages visible again at once, so a failed one is retried without waiting
// for the queue's visibility timeout. Errors are logged: the timeout brings them back anyway.
func (s *Sim) release(ctx context.Context, msgs []sqstypes.Message) {
	entries := make([]sqstypes.ChangeMessageVisibilityBatchRequestEntry, 0, len(msgs))
	for i, m := range msgs {
		entries = append(entries, sqstypes.ChangeMessageVisibilityBatchRequestEntry{
			Id: aws.String(strconv.Itoa(i)), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 0,
		})
	}
	if _, err := s.SQS.ChangeMessageVisibilityBatch(ctx, &sqs.ChangeMessageVisibilityBatchInput{
		QueueUrl: aws.String(s.OutboxURL), Entries: entries,
	}); err != nil {
		s.logger().Warn("connector sim: could not release messages; they return after the visibility timeout", "error", err.Error())
	}
}

// report sends a listing message for every listing of every channel under Dir and returns
// how many it sent.
func (s *Sim) report(ctx context.Context) (int, error) {
	accounts, err := os.ReadDir(s.Dir)
	if err != nil {
		return 0, err
	}
	nonce := strconv.FormatInt(time.Now().UnixNano(), 36)
	n := 0
	for _, a := range accounts {
		if !a.IsDir() || !idPattern.MatchString(a.Name()) {
			continue
		}
		files, err := filepath.Glob(filepath.Join(s.Dir, a.Name(), "*.json"))
		if err != nil {
			return n, err
		}
		for _, f := range files {
			uuid := strings.TrimSuffix(filepath.Base(f), ".json")
			if !idPattern.MatchString(uuid) {
				continue
			}
			ch, err := LoadChannel(s.Dir, a.Name(), uuid)
			if err != nil {
				return n, err
			}
			skus := make([]string, 0, len(ch.Listings))
			for sku := range ch.Listings {
				skus = append(skus, sku)
			}
			slices.Sort(skus)
			for _, sku := range skus {
				l := ch.Listings[sku]
				r := ListingReport{Type: wire.TypeListing, ChannelUUID: uuid, ChannelSKU: sku, ListingRef: l.ListingRef, ChannelQuantity: l.Quantity}
				if err := s.send(ctx, a.Name(), r, nonce); err != nil {
					return n, err
				}
				n++
			}
		}
	}
	return n, nil
}
