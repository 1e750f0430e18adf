package queue

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// Sender sends messages to one FIFO queue, so that a domain holds a queue,
// not an SDK client and a URL.
type Sender struct {
	Client *sqs.Client
	URL    string
}

// Send sends v, encoded, in the message group; dedup is the deduplication
// id (a retried send within five minutes is dropped).
func (s Sender) Send(ctx context.Context, group, dedup string, v any) error {
	body, err := Encode(v)
	if err != nil {
		return err
	}
	_, err = s.Client.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:               aws.String(s.URL),
		MessageBody:            aws.String(body),
		MessageGroupId:         aws.String(group),
		MessageDeduplicationId: aws.String(dedup),
	})
	if err != nil {
		return fmt.Errorf("send message %s: %w", dedup, err)
	}
	return nil
}
