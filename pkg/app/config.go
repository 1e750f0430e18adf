// Package app wires multisell together: configuration from the environment,
// the AWS clients, and the table of Lambda functions, each mapped to the
// domain handler it runs. functions/<name>/main.go, the local gateway and
// the CLI all take their handlers from here, so they run the very same code.
package app

import (
	"cmp"
	"os"
)

// Config is the environment of every function (see template.yaml Globals).
type Config struct {
	TableName           string // TABLE_NAME
	AdjustmentsQueueURL string // ADJUSTMENTS_QUEUE_URL
	OrderImportQueueURL string // ORDER_IMPORT_QUEUE_URL
	DynamoDBEndpoint    string // DYNAMODB_ENDPOINT: local stack only
	SQSEndpoint         string // SQS_ENDPOINT: local stack only
	Region              string // AWS_REGION
}

// EnvNames lists the environment variables Config reads.
var EnvNames = []string{"TABLE_NAME", "ADJUSTMENTS_QUEUE_URL", "ORDER_IMPORT_QUEUE_URL",
	"DYNAMODB_ENDPOINT", "SQS_ENDPOINT", "AWS_REGION"}

// ConfigFromEnv reads Config from the environment.
func ConfigFromEnv() Config {
	return Config{
		TableName:           os.Getenv("TABLE_NAME"),
		AdjustmentsQueueURL: os.Getenv("ADJUSTMENTS_QUEUE_URL"),
		OrderImportQueueURL: os.Getenv("ORDER_IMPORT_QUEUE_URL"),
		DynamoDBEndpoint:    os.Getenv("DYNAMODB_ENDPOINT"),
		SQSEndpoint:         os.Getenv("SQS_ENDPOINT"),
		Region:              cmp.Or(os.Getenv("AWS_REGION"), "us-east-1"),
	}
}
