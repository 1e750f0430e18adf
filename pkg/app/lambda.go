package app

import (
	"context"

	lambdaevents "github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/idempotency"
	"github.com/multisell/multisell/pkg/ratelimit"
)

// HTTPHandler is the handler of an API function.
type HTTPHandler = api.LambdaHandler

// AuthorizerHandler is the handler of the Lambda REQUEST authorizer.
type AuthorizerHandler = func(context.Context, lambdaevents.APIGatewayCustomAuthorizerRequestTypeRequest) (lambdaevents.APIGatewayCustomAuthorizerResponse, error)

// SQSHandler is the handler of an SQS-triggered function.
type SQSHandler = func(context.Context, lambdaevents.SQSEvent) (lambdaevents.SQSEventResponse, error)

// ScheduleHandler is the handler of a function run on a schedule.
type ScheduleHandler = func(context.Context, lambdaevents.EventBridgeEvent) error

// StreamHandler is the handler of a function the table's stream triggers.
type StreamHandler = func(context.Context, lambdaevents.DynamoDBEvent) (lambdaevents.DynamoDBEventResponse, error)

// HTTP wraps an endpoint handler in the shared envelope with the rate limit
// and the replays of Idempotency-Keys: every API function serves its
// endpoint through it.
func (d *Deps) HTTP(h api.Handler) HTTPHandler {
	return api.Lambda(h, ratelimit.Limiter{Table: d.Table}, idempotency.Store{Table: d.Table})
}
