// Command channels-migrate is the Lambda function ChannelsMigrateFunction of template.yaml:
// it reads its configuration from the environment and serves channels.Handlers.Migrate over
// the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/kmsclient"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/builtin"
)

func main() {
	builtin.Register()
	d := app.NewLambda(app.ConfigFromEnv(), kmsclient.Keys)
	lambda.Start(d.HTTP(channels.Handlers{Service: d.Channels()}.Migrate))
}
