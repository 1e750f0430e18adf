// Command webhook-delivery is the Lambda function WebhookDeliveryFunction of
// template.yaml: it reads its configuration from the environment and serves
// webhooks.Handlers.Consume over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/webhooks"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(webhooks.Handlers{Service: d.Webhooks()}.Consume)
}
