// Command channels-authorize is the Lambda function ChannelsAuthorizeFunction of
// template.yaml: it reads its configuration from the environment and serves
// consent.Handlers.Create over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/secretsclient"
	"github.com/multisell/multisell/pkg/connectors/builtin"
	"github.com/multisell/multisell/pkg/consent"
)

func main() {
	builtin.Register()
	d := app.NewLambda(app.ConfigFromEnv(), secretsclient.Apps)
	lambda.Start(d.HTTP(consent.Handlers{Service: d.Consent()}.Create))
}
