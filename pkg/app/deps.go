package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go/logging"

	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Deps are the clients the handlers share; build them once per process.
type Deps struct {
	Config Config
	Table  store.Table
	SQS    *sqs.Client
	// Webhooks posts webhook deliveries, keeping its connections between
	// attempts.
	Webhooks *webhookhttp.Sender
}

// New builds the clients. With local endpoints set it uses static dummy
// credentials, as the emulators want; otherwise the standard AWS chain.
func New(ctx context.Context, cfg Config) (*Deps, error) {
	opts := []func(*awsconfig.LoadOptions) error{awsconfig.WithRegion(cfg.Region), awsconfig.WithLogger(sdkLogger{})}
	if cfg.DynamoDBEndpoint != "" || cfg.SQSEndpoint != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider("local", "local", "")))
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("load AWS config: %w", err)
	}
	db := dynamodb.NewFromConfig(awsCfg, store.Metering, func(o *dynamodb.Options) {
		if cfg.DynamoDBEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.DynamoDBEndpoint)
		}
	})
	q := sqs.NewFromConfig(awsCfg, func(o *sqs.Options) {
		if cfg.SQSEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.SQSEndpoint)
		}
	})
	sender := &webhookhttp.Sender{Policy: webhookhttp.Policy{Local: cfg.WebhookLoopback}, Timeout: cfg.WebhookTimeout}
	return &Deps{Config: cfg, Table: store.Table{DB: db, Name: cfg.TableName}, SQS: q, Webhooks: sender}, nil
}

// SetupLogging makes log/slog write JSON to stderr, as CloudWatch wants.
func SetupLogging() {
	slog.SetDefault(slog.New(slog.NewJSONHandler(os.Stderr, nil)))
}

// sdkLogger sends the AWS SDK's own log lines to log/slog, so they are JSON
// like every other line.
type sdkLogger struct{}

// Logf implements logging.Logger.
func (sdkLogger) Logf(c logging.Classification, format string, v ...any) {
	level := slog.LevelInfo
	if c == logging.Warn {
		level = slog.LevelWarn
	}
	slog.Log(context.Background(), level, fmt.Sprintf(format, v...), "source", "aws-sdk")
}
