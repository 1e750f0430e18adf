// Command products-upsert is the Lambda function ProductsUpsertFunction of template.yaml:
// it reads its configuration from the environment and serves catalog.Handlers.Upsert over
// the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/catalog"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(catalog.Handlers{Service: d.Catalog()}.Upsert))
}
