// Command inventory-adjustment-get is the Lambda function InventoryAdjustmentGetFunction
// of template.yaml: it reads its configuration from the environment and serves
// inventory.Handlers.GetAdjustment over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/inventory"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(inventory.Handlers{Service: d.Inventory()}.GetAdjustment))
}
