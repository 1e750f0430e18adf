// Command warehouses-list is the Lambda function WarehousesListFunction of template.yaml:
// it reads its configuration from the environment and serves warehouses.Handlers.List over
// the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/warehouses"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(warehouses.Handlers{Service: d.Warehouses()}.List))
}
