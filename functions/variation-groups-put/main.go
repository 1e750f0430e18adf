// Command variation-groups-put is the Lambda function VariationGroupsPutFunction of
// template.yaml: it reads its configuration from the environment and serves
// catalog.Handlers.PutGroup over the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/catalog"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(catalog.Handlers{Service: d.Catalog()}.PutGroup))
}
