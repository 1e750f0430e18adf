// Command webhook-delivery-sweep is the Lambda function WebhookDeliverySweepFunction of
// template.yaml: it reads its configuration from the environment and serves
// webhooks.Handlers.Sweep over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/webhooks"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(webhooks.Handlers{Service: d.Webhooks()}.Sweep)
}
