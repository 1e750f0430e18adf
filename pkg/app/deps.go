package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/smithy-go/logging"

	"github.com/multisell/multisell/pkg/sdkhttp"
	"github.com/multisell/multisell/pkg/secrets"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Deps are the clients the handlers share; build them once per process.
type Deps struct {
	Config Config
	Table  store.Table
	SQS    *sqs.Client
	// Keys is the KMS key channel credentials and cached access tokens are
	// sealed under (Deps.Secrets), set by the Client pkg/app/kmsclient gives
	// NewDeps: nil in a function whose main passes none.
	Keys secrets.Keys
	// WebhookSender posts webhook deliveries, keeping its connections
	// between attempts.
	WebhookSender *webhookhttp.Sender
	// ConsentApps reads the operator's apps of the consent flow (a JSON object of apps by
	// connector name, docs/connectors.md "Connecting a merchant"): the secret
	// CONSENT_APPS_SECRET names, through the client pkg/app/secretsclient gives NewDeps;
	// against the emulators, LocalApps'. Nil: no app, so no type connects by consent.
	ConsentApps func(ctx context.Context) ([]byte, error)
	// LocalApps are the local stack's apps, the sandboxes' (nil in AWS).
	LocalApps *LocalApps
	// routes remembers which queue each channel's pushes take (connections.Route).
	routes sync.Map
}

// How long an AWS call may take on AWS: each attempt times out after
// SDKAttemptTimeout, and a call makes at most SDKMaxAttempts attempts,
// waiting at most SDKMaxBackoff between two. A call therefore gives up
// within SDKCallBudget, shorter than every function's timeout
// (pkg/local/template's tests hold template.yaml to it), so a hung call is
// an error the function logs and answers, not a function timeout.
const (
	SDKAttemptTimeout = 2500 * time.Millisecond
	SDKMaxAttempts    = 3
	SDKMaxBackoff     = 500 * time.Millisecond
	SDKCallBudget     = SDKMaxAttempts*SDKAttemptTimeout + (SDKMaxAttempts-1)*SDKMaxBackoff
)

// NewDeps builds the clients over awsCfg (its region and credentials):
// with local endpoints set, with static dummy credentials, as the
// emulators want, and the SDK's own timeouts (the emulators share a loaded
// machine; their latency says nothing about AWS's); otherwise with the
// limits above. A function on Lambda builds them with NewLambda, the CLI,
// the local stack and the tests with pkg/app/sdkchain, which reads the AWS
// SDK's configuration chain: pkg/app does not import that chain, so that a
// function's binary does not link it (docs/decisions.md). Each of clients
// then adds a client only some functions call.
func NewDeps(cfg Config, awsCfg aws.Config, clients ...Client) *Deps {
	awsCfg = withLimits(cfg, awsCfg)
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
	d := &Deps{Config: cfg, Table: store.Table{DB: db, Name: cfg.TableName}, SQS: q, WebhookSender: sender}
	if cfg.local() {
		d.LocalApps = &LocalApps{}
		d.ConsentApps = d.LocalApps.Document
	}
	for _, add := range clients {
		add(d, awsCfg)
	}
	return d
}

// A Client adds to d a client that only some functions call, built over
// awsCfg (the limits on a call applied) and d.Config (its local endpoint):
// pkg/app/kmsclient's. Such a client is built outside pkg/app, so that
// only the binaries whose main passes it link its SDK package, whose
// package init alone is tens of kilobytes (docs/decisions.md).
type Client func(d *Deps, awsCfg aws.Config)

// withLimits is awsCfg with the SDK's log lines in log/slog and, against
// the emulators, their dummy credentials, else the limits on a call.
func withLimits(cfg Config, awsCfg aws.Config) aws.Config {
	awsCfg.Logger = sdkLogger{}
	if cfg.local() {
		awsCfg.Credentials, awsCfg.HTTPClient = localCredentials, sdkhttp.New()
	} else {
		awsCfg.HTTPClient, awsCfg.Retryer = sdkhttp.Guard(sdkHTTPClient()), sdkRetryer
	}
	return awsCfg
}

// local reports whether cfg names the emulators' endpoints.
func (c Config) local() bool {
	return c.DynamoDBEndpoint != "" || c.SQSEndpoint != "" || c.KMSEndpoint != ""
}

// localCredentials are what the emulators accept.
var localCredentials = credentials.NewStaticCredentialsProvider("local", "local", "")

// sdkHTTPClient gives up an attempt after SDKAttemptTimeout.
func sdkHTTPClient() aws.HTTPClient {
	return awshttp.NewBuildableClient().WithTimeout(SDKAttemptTimeout)
}

// sdkRetryer makes at most SDKMaxAttempts attempts, SDKMaxBackoff apart at
// most.
func sdkRetryer() aws.Retryer {
	return retry.NewStandard(func(o *retry.StandardOptions) {
		o.MaxAttempts, o.MaxBackoff = SDKMaxAttempts, SDKMaxBackoff
	})
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
