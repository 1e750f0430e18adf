// Command webhooks-update is the Lambda function WebhooksUpdateFunction of template.yaml:
// it reads its configuration from the environment and serves webhooks.Handlers.Update over
// the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/webhooks"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Update))
}
