// Command carriers-list is the Lambda function CarriersListFunction of template.yaml: it
// reads its configuration from the environment and serves shipments.Handlers.Carriers over
// the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/shipments"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(shipments.Handlers{Service: d.Shipments()}.Carriers))
}
