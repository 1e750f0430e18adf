package testenv

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/queue"
)

// SendInbox puts body on the channel inbox of account as a connector would (account "":
// without the account attribute).
func (e *Env) SendInbox(t testing.TB, account, body string) {
	t.Helper()
	in := &sqs.SendMessageInput{QueueUrl: aws.String(e.Config.ChannelInboxQueueURL), MessageBody: aws.String(body),
		MessageGroupId: aws.String("g-" + account), MessageDeduplicationId: aws.String(fmt.Sprint(time.Now().UnixNano()))}
	if account != "" {
		in.MessageAttributes = map[string]sqstypes.MessageAttributeValue{
			queue.AccountAttribute: {DataType: aws.String("String"), StringValue: aws.String(account)}}
	}
	if _, err := e.Deps.SQS.SendMessage(context.Background(), in); err != nil {
		t.Fatal(err)
	}
}
