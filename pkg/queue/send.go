package queue

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// SendFIFO sends v, encoded, to a FIFO queue in the message group; dedup is
// the deduplication id (a retried send within five minutes is dropped).
func SendFIFO(ctx context.Context, c *sqs.Client, url, group, dedup string, v any) error {
	body, err := Encode(v)
	if err != nil {
		return err
	}
	_, err = c.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl:               aws.String(url),
		MessageBody:            aws.String(body),
		MessageGroupId:         aws.String(group),
		MessageDeduplicationId: aws.String(dedup),
	})
	if err != nil {
		return fmt.Errorf("send message %s: %w", dedup, err)
	}
	return nil
}
