// Command inventory-adjust-sweep is a Lambda function of multisell: it reads its configuration
// from the environment and serves the handler registered as "inventory-adjust-sweep" in
// pkg/app/functions.go.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
)

func main() {
	deps := app.MustNew(app.ConfigFromEnv())
	lambda.Start(deps.MustHandler("inventory-adjust-sweep"))
}
