// Command warehouse-fulfillments-list is the Lambda function
// WarehouseFulfillmentsListFunction of template.yaml: it reads its configuration from the
// environment and serves orders.Handlers.Fulfillments over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/orders"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(orders.Handlers{Service: d.Orders()}.Fulfillments))
}
