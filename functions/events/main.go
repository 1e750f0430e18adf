// Command events is the Lambda function EventsFunction of template.yaml: it reads its
// configuration from the environment and serves events.Handlers.Stream over the services
// pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/events"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(events.Handlers{Service: d.Events()}.Stream)
}
