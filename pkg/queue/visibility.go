package queue

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/deadline"
)

// MaxRetryWait is the longest RetryWait.
const MaxRetryWait = 5 * time.Second

// RetryWait is how long a message that failed on its receive-th delivery
// stays invisible before it is tried again: a second per delivery so far,
// at most MaxRetryWait. An outage of a dependency then holds a message
// back about as long as the outage, not the queue's visibility timeout.
func RetryWait(receive int) time.Duration {
	return min(time.Duration(max(receive, 1))*time.Second, MaxRetryWait)
}

// RetrySoon makes the messages of ev that resp reports as failures visible
// again after their RetryWait (ChangeMessageVisibility; Lambda would leave
// them invisible for the queue's whole visibility timeout). ctx may be
// spent: it takes a few seconds of its own. On an error the messages simply
// come back after the visibility timeout.
func (s Sender) RetrySoon(ctx context.Context, ev events.SQSEvent, resp events.SQSEventResponse) error {
	if len(resp.BatchItemFailures) == 0 {
		return nil
	}
	failed := make(map[string]bool, len(resp.BatchItemFailures))
	for _, f := range resp.BatchItemFailures {
		failed[f.ItemIdentifier] = true
	}
	waits := make(map[string]time.Duration, len(failed))
	for _, m := range ev.Records {
		if failed[m.MessageId] {
			receive, _ := strconv.Atoi(m.Attributes["ApproximateReceiveCount"])
			waits[m.MessageId] = RetryWait(receive)
		}
	}
	return s.Hide(ctx, ev, waits)
}

// MaxHide is the longest SQS keeps a received message invisible.
const MaxHide = 12 * time.Hour

// Hide keeps the messages of ev named in waits (by message id) invisible
// for their wait (whole seconds, rounded up, at most MaxHide) from now:
// a message its consumer puts off (reported as a batch item failure) is
// received again then. ctx may be spent: it takes a few seconds of its
// own. On an error the messages come back after the visibility timeout.
func (s Sender) Hide(ctx context.Context, ev events.SQSEvent, waits map[string]time.Duration) error {
	var entries []types.ChangeMessageVisibilityBatchRequestEntry
	for _, m := range ev.Records {
		wait, ok := waits[m.MessageId]
		if !ok {
			continue
		}
		secs := min((max(wait, 0)+time.Second-1)/time.Second, MaxHide/time.Second)
		entries = append(entries, types.ChangeMessageVisibilityBatchRequestEntry{
			Id: aws.String(strconv.Itoa(len(entries))), ReceiptHandle: aws.String(m.ReceiptHandle),
			VisibilityTimeout: int32(secs),
		})
	}
	if len(entries) == 0 {
		return nil
	}
	ctx, cancel := deadline.Detached(ctx, 2*time.Second)
	defer cancel()
	var errs []error
	for start := 0; start < len(entries); start += 10 {
		batch := entries[start:min(start+10, len(entries))]
		out, err := s.Client.ChangeMessageVisibilityBatch(ctx, &sqs.ChangeMessageVisibilityBatchInput{QueueUrl: aws.String(s.URL), Entries: batch})
		if err != nil {
			errs = append(errs, fmt.Errorf("change message visibility: %w", err))
			continue
		}
		for _, f := range out.Failed {
			errs = append(errs, fmt.Errorf("change message visibility of entry %s: %s", aws.ToString(f.Id), aws.ToString(f.Message)))
		}
	}
	return errors.Join(errs...)
}
