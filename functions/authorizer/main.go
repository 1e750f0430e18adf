// Command authorizer is the Lambda function AuthorizerFunction of template.yaml: it reads
// its configuration from the environment and serves auth.Authorizer.Handle over the
// services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(d.Authorizer().Handle)
}
