// Command channel-inbox is the Lambda function ChannelInboxFunction of template.yaml: it
// reads its configuration from the environment and serves inbox.Handlers.Consume over the
// services pkg/app wires.
package main

import (
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/inbox"
)

func main() {
	d := app.NewLambda(app.ConfigFromEnv())
	lambda.Start(inbox.Handlers{Service: d.Inbox()}.Consume)
}
