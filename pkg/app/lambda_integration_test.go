package app_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestNewLambdaClients: the clients a function builds without the SDK's
// configuration chain reach the table and the queues.
func TestNewLambdaClients(t *testing.T) {
	env := testenv.Get(t)
	d := app.NewLambda(env.Config)
	ctx := context.Background()
	if _, err := d.Table.DB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(env.Config.TableName)}); err != nil {
		t.Errorf("DynamoDB: %v", err)
	}
	if _, err := d.SQS.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(env.Config.AdjustmentsQueueURL)}); err != nil {
		t.Errorf("SQS: %v", err)
	}
}
