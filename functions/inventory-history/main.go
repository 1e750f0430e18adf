// Command inventory-history is the Lambda function InventoryHistoryFunction
// of template.yaml: it reads its configuration from the environment and serves
// inventory.Handlers.History over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/inventory"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(inventory.Handlers{Service: d.Inventory()}.History))
}
