// Command inventory-adjust-consumer is the Lambda function InventoryAdjustConsumerFunction
// of template.yaml: it reads its configuration from the environment and serves
// inventory.Handlers.Consume over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/inventory"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(inventory.Handlers{Service: d.Inventory()}.Consume)
}
