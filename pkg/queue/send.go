package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// AccountAttribute is the message attribute naming the account a message
// of the channel queues belongs to (the inbox, the outbox, the retries).
const AccountAttribute = "account_id"

// Sender sends messages to one queue, so that a domain holds a queue, not
// an SDK client and a URL. Bodies are Encode'd, or Plain JSON for a queue
// outside parties read.
type Sender struct {
	Client *sqs.Client
	URL    string
	Plain  bool
}

// Message is one message to send.
type Message struct {
	// Group and Dedup are the FIFO message group and deduplication id (a
	// repeated send within five minutes is dropped); empty for a standard
	// queue.
	Group, Dedup string
	// Delay holds the message back (standard queues only, at most 15
	// minutes).
	Delay time.Duration
	// Account, when set, is sent as the account_id attribute; Attributes
	// are more string attributes.
	Account    string
	Attributes map[string]string
	// Body is encoded as JSON, unless Text is set: then Text is the body.
	Body any
	Text string
}

// Send sends v, encoded, in the message group of a FIFO queue; dedup is the
// deduplication id.
func (s Sender) Send(ctx context.Context, group, dedup string, v any) error {
	return s.SendMessage(ctx, Message{Group: group, Dedup: dedup, Body: v})
}

// body is the message body of m.
func (s Sender) body(m Message) (string, error) {
	switch {
	case m.Text != "":
		return m.Text, nil
	case s.Plain:
		return Plain(m.Body)
	}
	return Encode(m.Body)
}

// SendMessage sends m.
func (s Sender) SendMessage(ctx context.Context, m Message) error {
	body, err := s.body(m)
	if err != nil {
		return err
	}
	in := &sqs.SendMessageInput{QueueUrl: aws.String(s.URL), MessageBody: aws.String(body)}
	if m.Group != "" {
		in.MessageGroupId, in.MessageDeduplicationId = aws.String(m.Group), aws.String(m.Dedup)
	}
	if m.Delay > 0 {
		in.DelaySeconds = int32(min(m.Delay, 15*time.Minute) / time.Second)
	}
	attrs := m.Attributes
	if m.Account != "" {
		attrs = map[string]string{AccountAttribute: m.Account}
		for k, v := range m.Attributes {
			attrs[k] = v
		}
	}
	if len(attrs) > 0 {
		in.MessageAttributes = make(map[string]types.MessageAttributeValue, len(attrs))
		for k, v := range attrs {
			in.MessageAttributes[k] = types.MessageAttributeValue{DataType: aws.String("String"), StringValue: aws.String(v)}
		}
	}
	if _, err := s.Client.SendMessage(ctx, in); err != nil {
		return fmt.Errorf("send message %s: %w", m.Dedup, err)
	}
	return nil
}
