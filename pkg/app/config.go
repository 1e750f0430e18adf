// Package app wires multisell together: configuration from the environment,
// the AWS clients every function shares (Deps), the HTTP envelope of the API
// functions, and one constructor per domain service, each in a file of its
// own with the hooks between services. functions/<name>/main.go builds Deps
// and starts its one domain handler over these constructors, so a function's
// binary links only the services its handler reaches; pkg/local/functions
// maps every function name to the same handler for the local stack and the
// tests.
//
// Every dependency of a service on another is a field its constructor sets
// here (nothing else builds another package's Service: pkg/layout holds
// that). The constructors call each other, so they must not call each
// other in a circle: the orders service is the hook of inventory,
// warehouses and shipments, so what it reads of those it reads through
// views built without hooks (orders.go says which).
package app

import (
	"cmp"
	"os"
	"time"

	"github.com/multisell/multisell/pkg/webhooks"
)

// Config is the environment of every function (see template.yaml Globals).
type Config struct {
	TableName           string // TABLE_NAME
	AdjustmentsQueueURL string // ADJUSTMENTS_QUEUE_URL
	AdjustmentsDLQURL   string // ADJUSTMENTS_DLQ_URL
	// AdjustmentResendAfter is how long an accepted adjustment may stay
	// queued before the sweep sends it again (ADJUSTMENT_RESEND_AFTER, a Go
	// duration; inventory.DefaultResendAfter when unset).
	AdjustmentResendAfter time.Duration
	// The channel queues (docs/channel-sync.md): connectors send to the
	// inbox and read the outbox; failed pushes wait in the retry queue;
	// rejected inbox messages go to the inbox's dead-letter queue.
	ChannelInboxQueueURL  string // CHANNEL_INBOX_QUEUE_URL
	ChannelInboxDLQURL    string // CHANNEL_INBOX_DLQ_URL
	ChannelOutboxQueueURL string // CHANNEL_OUTBOX_QUEUE_URL
	ChannelRetryQueueURL  string // CHANNEL_RETRY_QUEUE_URL
	// The connector queues (docs/connectors.md): the outbox messages of channels
	// served by a connector of multisell's own, and the polls due.
	ConnectorQueueURL     string // CONNECTOR_QUEUE_URL
	ConnectorPollQueueURL string // CONNECTOR_POLL_QUEUE_URL
	// SyncRetryBase is the wait before the first retry of a failed push
	// (SYNC_RETRY_BASE, a Go duration; 30s when unset).
	SyncRetryBase time.Duration
	// Webhooks (docs/webhooks.md): the delivery queue, the waits before
	// each retry of a failed delivery (WEBHOOK_RETRY_SCHEDULE, Go durations
	// separated by commas; the default schedule of about two days when
	// unset or unreadable), an attempt's timeout (WEBHOOK_TIMEOUT; 10s when
	// unset), and whether deliveries may go to loopback hosts over http
	// (WEBHOOK_LOOPBACK=true: the local stack only).
	WebhookDeliveryQueueURL string // WEBHOOK_DELIVERY_QUEUE_URL
	WebhookRetrySchedule    []time.Duration
	WebhookTimeout          time.Duration
	WebhookLoopback         bool
	// CredentialsKeyID names the KMS key channel credentials and cached
	// access tokens are sealed under (CREDENTIALS_KEY_ID: its alias, key id
	// or ARN; docs/connectors.md).
	CredentialsKeyID string
	// ConsentAppsSecret names the Secrets Manager secret of the operator's apps, by which
	// merchants connect channels by consent (CONSENT_APPS_SECRET: its ARN;
	// docs/connectors.md, "Connecting a merchant").
	ConsentAppsSecret string
	DynamoDBEndpoint  string // DYNAMODB_ENDPOINT: local stack only
	SQSEndpoint       string // SQS_ENDPOINT: local stack only
	KMSEndpoint       string // KMS_ENDPOINT: local stack only
	Region            string // AWS_REGION
}

// EnvNames lists the environment variables Config reads.
var EnvNames = []string{"TABLE_NAME", "ADJUSTMENTS_QUEUE_URL", "ADJUSTMENTS_DLQ_URL", "ADJUSTMENT_RESEND_AFTER", "CHANNEL_INBOX_QUEUE_URL", "CHANNEL_INBOX_DLQ_URL",
	"CHANNEL_OUTBOX_QUEUE_URL", "CHANNEL_RETRY_QUEUE_URL", "CONNECTOR_QUEUE_URL", "CONNECTOR_POLL_QUEUE_URL", "SYNC_RETRY_BASE", "WEBHOOK_DELIVERY_QUEUE_URL", "WEBHOOK_RETRY_SCHEDULE", "WEBHOOK_TIMEOUT", "WEBHOOK_LOOPBACK", "CREDENTIALS_KEY_ID", "CONSENT_APPS_SECRET", "DYNAMODB_ENDPOINT", "SQS_ENDPOINT", "KMS_ENDPOINT", "AWS_REGION"}

// ConfigFromEnv reads Config from the environment.
func ConfigFromEnv() Config { return ConfigFrom(os.Getenv) }

// ConfigFrom reads Config from the variables getenv returns.
func ConfigFrom(getenv func(string) string) Config {
	base, _ := time.ParseDuration(getenv("SYNC_RETRY_BASE"))
	schedule, err := webhooks.ParseSchedule(getenv("WEBHOOK_RETRY_SCHEDULE"))
	if err != nil {
		schedule = webhooks.DefaultSchedule
	}
	timeout, _ := time.ParseDuration(getenv("WEBHOOK_TIMEOUT"))
	resend, _ := time.ParseDuration(getenv("ADJUSTMENT_RESEND_AFTER"))
	return Config{
		TableName:               getenv("TABLE_NAME"),
		AdjustmentsQueueURL:     getenv("ADJUSTMENTS_QUEUE_URL"),
		AdjustmentsDLQURL:       getenv("ADJUSTMENTS_DLQ_URL"),
		AdjustmentResendAfter:   resend,
		ChannelInboxQueueURL:    getenv("CHANNEL_INBOX_QUEUE_URL"),
		ChannelInboxDLQURL:      getenv("CHANNEL_INBOX_DLQ_URL"),
		ChannelOutboxQueueURL:   getenv("CHANNEL_OUTBOX_QUEUE_URL"),
		ChannelRetryQueueURL:    getenv("CHANNEL_RETRY_QUEUE_URL"),
		ConnectorQueueURL:       getenv("CONNECTOR_QUEUE_URL"),
		ConnectorPollQueueURL:   getenv("CONNECTOR_POLL_QUEUE_URL"),
		SyncRetryBase:           base,
		WebhookDeliveryQueueURL: getenv("WEBHOOK_DELIVERY_QUEUE_URL"),
		WebhookRetrySchedule:    schedule,
		WebhookTimeout:          timeout,
		WebhookLoopback:         getenv("WEBHOOK_LOOPBACK") == "true",
		CredentialsKeyID:        getenv("CREDENTIALS_KEY_ID"),
		ConsentAppsSecret:       getenv("CONSENT_APPS_SECRET"),
		DynamoDBEndpoint:        getenv("DYNAMODB_ENDPOINT"),
		SQSEndpoint:             getenv("SQS_ENDPOINT"),
		KMSEndpoint:             getenv("KMS_ENDPOINT"),
		Region:                  cmp.Or(getenv("AWS_REGION"), "us-east-1"),
	}
}
