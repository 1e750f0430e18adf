// Command channels-authorize-callback is the Lambda function
// ChannelsAuthorizeCallbackFunction of template.yaml, the public route a marketplace sends
// the merchant's browser back to: it reads its configuration from the environment and
// serves consent.Handlers.Callback over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/kmsclient"
	"github.com/multisell/multisell/pkg/app/secretsclient"
	"github.com/multisell/multisell/pkg/connectors/builtin"
	"github.com/multisell/multisell/pkg/consent"
)

func main() {
	builtin.Register()
	d := app.NewLambda(app.ConfigFromEnv(), kmsclient.Keys, secretsclient.Apps)
	lambda.Start(api.Public(consent.Handlers{Service: d.Consent()}.Callback))
}
