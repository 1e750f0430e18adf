// Command connector-poll is the Lambda function ConnectorPollFunction of template.yaml: it reads its
// configuration from the environment and serves connectors.Handlers.ConsumePolls over the
// services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/kmsclient"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/builtin"
)

func main() {
	builtin.Register()
	d := app.NewLambda(app.ConfigFromEnv(), kmsclient.Keys)
	lambda.Start(connectors.Handlers{Service: d.Connectors()}.ConsumePolls)
}
