// Command connector-poll-schedule is the Lambda function ConnectorPollScheduleFunction of template.yaml: it reads its
// configuration from the environment and serves connectors.Handlers.Schedule over the
// services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/connectors"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(connectors.Handlers{Service: d.Connectors()}.Schedule)
}
