// Command products-list is the Lambda function ProductsListFunction of template.yaml: it
// reads its configuration from the environment and serves catalog.Handlers.List over the
// services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/catalog"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(catalog.Handlers{Service: d.Catalog()}.List))
}
