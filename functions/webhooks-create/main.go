// Command webhooks-create is the Lambda function WebhooksCreateFunction of template.yaml:
// it reads its configuration from the environment and serves webhooks.Handlers.Create over
// the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/webhooks"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(webhooks.Handlers{Service: d.Webhooks()}.Create))
}
