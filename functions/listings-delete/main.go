// Command listings-delete is the Lambda function ListingsDeleteFunction of template.yaml:
// it reads its configuration from the environment and serves listings.Handlers.Delete over
// the services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/listings"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.HTTP(listings.Handlers{Service: d.Listings()}.Delete))
}
