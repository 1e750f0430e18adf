// Command warehouses-create is the Lambda function WarehousesCreateFunction of
// template.yaml: it reads its configuration from the environment and serves
// warehouses.Handlers.Create over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/warehouses"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(warehouses.Handlers{Service: d.Warehouses()}.Create))
}
